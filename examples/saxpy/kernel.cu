// The kernel half of the bundled example: it calls a device function and
// reads a __constant__ defined in math.cu, so the link has real work to do.
extern __device__ float fma_scaled(float a, float x, float y);
extern __constant__ float scale;

__global__ void saxpy(int n, float a, const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = fma_scaled(a, x[i], y[i]);
}
