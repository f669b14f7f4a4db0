extern __device__ float ratio(float a, float b);
__device__ float total;
// Calls ratio in the other file, which -dlto inlines here.
__global__ void normalize(float *v, const float *w, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        v[i] = ratio(v[i], w[i]);
        atomicAdd(&total, v[i]);
    }
}
