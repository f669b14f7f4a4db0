// whole-program device code (nvcc -c): nvlink does not link it, and it has no .nvHR* lists
__device__ int whole_counter;

__global__ void whole_kernel(int *out) { out[threadIdx.x] = atomicAdd(&whole_counter, 1); }

void run_whole(int *out) { whole_kernel<<<1, 32>>>(out); }
