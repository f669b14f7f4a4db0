__device__ __noinline__ int square(int x) { return x * x; }

__device__ __noinline__ int sum_squares(const int *p, int n)
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s += square(p[i]);
    return s;
}

__global__ void kernel(const int *in, int *out, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    out[t] = sum_squares(in + t * n, n);
}
