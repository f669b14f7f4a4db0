extern __device__ float clamp01(float x);
extern __device__ float weigh(int i, float x);
__global__ void normalize(float *p) { p[threadIdx.x] = clamp01(p[threadIdx.x]); }
__global__ void weighted(float *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = clamp01(weigh(i, p[i]));
}
