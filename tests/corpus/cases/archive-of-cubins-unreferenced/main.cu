__device__ __noinline__ int main_helper(int x) { return x * 3 + 1; }

__global__ void main_kernel(int *out) { out[threadIdx.x] = main_helper(threadIdx.x); }
