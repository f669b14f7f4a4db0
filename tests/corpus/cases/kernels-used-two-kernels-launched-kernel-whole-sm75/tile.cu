// A tiling pass: the host launches k_root, which refines with a helper that
// is not inlined and launches k_tile; k_tile refines too, launches k_leaf and
// itself, and checks the launches with cudaGetLastError (libcudadevrt).
__device__ int g_status;
__device__ __noinline__ float refine(const float *v, int n, float a, float b, float c)
{
    float s0 = 0, s1 = 1, s2 = 2, s3 = 3, s4 = 4, s5 = 5, s6 = 6, s7 = 7;
    for (int i = 0; i < n; ++i) {
        float x = v[i];
        s0 += x * a; s1 *= x + b; s2 -= x * c; s3 += s0 * s1; s4 += s2 * s3; s5 += s4 * x; s6 -= s5 * a; s7 += s6 * s0;
    }
    return s0 + s1 + s2 + s3 + s4 + s5 + s6 + s7;
}
__global__ void k_leaf(float *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[i] *= 0.5f;
}
__global__ void k_tile(float *v, int n, int depth)
{
    if (threadIdx.x != 0) return;
    v[0] = refine(v, n, 1.5f, 2.5f, 3.5f);
    k_leaf<<<(n + 63) / 64, 64>>>(v, n);
    if (depth > 0) k_tile<<<1, 32>>>(v + n / 2, n / 2, depth - 1);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) g_status = (int)e;
}
__global__ void k_root(float *v, int n)
{
    if (threadIdx.x == 0) { v[1] = refine(v, n, 0.5f, 1.5f, 2.5f); k_tile<<<1, 32>>>(v, n, 2); }
}
