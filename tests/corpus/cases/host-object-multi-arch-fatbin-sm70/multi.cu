// compiled for sm_70 and sm_80 (SASS) plus compute_80 (PTX)
__device__ int shared_total;                  // extern in single.cu
extern __device__ int twice(int x);           // defined in single.cu

__device__ __noinline__ int square_plus(int x) { return x * x + shared_total; }

__global__ void multi_kernel(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
#if __CUDA_ARCH__ >= 800
        out[i] = twice(i) + 800;              // differs per architecture
#else
        out[i] = twice(i) + 700;
#endif
        atomicAdd(&shared_total, 1);
    }
}
