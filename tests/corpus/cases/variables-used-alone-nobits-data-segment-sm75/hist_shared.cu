#include "common.h"
__device__ unsigned int g_total;
__managed__ unsigned int m_calls;
__global__ void __launch_bounds__(256, 4) hist_shared(const unsigned char *in, int n, unsigned int *out)
{
    __shared__ unsigned int local[NBINS];
    __shared__ unsigned short seen[32];
    for (int i = threadIdx.x; i < NBINS; i += blockDim.x) local[i] = 0;
    if (threadIdx.x < 32) seen[threadIdx.x] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        unsigned int b = clampu(bin_of(in[i]), NBINS);
        atomicAdd(&local[b], 1u);
        seen[b & 31] = 1;
    }
    __syncthreads();
    for (int i = threadIdx.x; i < NBINS; i += blockDim.x) {
        atomicAdd(&out[i], local[i] + seen[i & 31]);
    }
    if (threadIdx.x == 0) { atomicAdd(&g_total, 1u); atomicAdd(&m_calls, 1u); }
}
__global__ void hist_reset(unsigned int *out)
{
    out[threadIdx.x] = 0;
    if (threadIdx.x == 0) g_total = 0;
}
