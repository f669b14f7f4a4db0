extern __device__ int lib_helper(int x);      // lib.cubin, inside libcubins.a
extern __device__ int lib_counter;            // lib.cubin, inside libcubins.a

__global__ void main_kernel(int *out) { out[threadIdx.x] = lib_helper(threadIdx.x) + lib_counter; }
