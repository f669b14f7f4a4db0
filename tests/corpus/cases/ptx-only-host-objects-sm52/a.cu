// PTX only (compute_52): nvlink compiles it for the target
#include <cstdio>
__device__ int hits;                              // extern in b.cu
__constant__ float weights[4] = {0.5f, 1.5f, 2.5f, 3.5f};
extern __device__ float blend(float x, int k);    // defined in b.cu

__device__ __noinline__ float weigh(float x, int k) { return x * weights[k & 3] + hits; }

__global__ void scale_kernel(float *out, const float *in, int n)
{
    __shared__ float tile[128];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    tile[threadIdx.x & 127] = i < n ? in[i] : 0.0f;
    __syncthreads();
    if (i < n) {
        out[i] = blend(tile[(threadIdx.x + 1) & 127], i);
        atomicAdd(&hits, 1);
    }
    if (i == 0)
        printf("scale_kernel: n=%d\n", n);
}
