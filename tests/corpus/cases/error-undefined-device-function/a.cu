extern __device__ int missing_function(int x);   // defined nowhere
extern __device__ int present_function(int x);

__global__ void k_calls_missing(int *out) { out[threadIdx.x] = missing_function(threadIdx.x) + present_function(1); }
