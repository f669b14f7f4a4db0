// PTX only (compute_80), calling back into a.cu
extern __device__ int hits;                       // defined in a.cu
extern __device__ float weigh(float x, int k);    // defined in a.cu

__device__ __noinline__ float blend(float x, int k) { return weigh(x, k) * 0.25f + k; }

__global__ void reduce_kernel(float *out, const float *in, int n)
{
    float s = 0;
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        s += blend(in[i], i);
    atomicAdd(out, s);
    if (threadIdx.x == 0)
        hits = 0;
}
