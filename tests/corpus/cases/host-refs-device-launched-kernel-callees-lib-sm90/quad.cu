// A quadtree split: the host launches k_build, which launches k_split for
// the cells that need it; k_split classifies points with a helper that is
// not inlined.
__device__ __noinline__ int quadrant(float x, float y, float cx, float cy) { return (x >= cx) + 2 * (y >= cy); }
__device__ __noinline__ float cell_density(int count, float size) { return count / (size * size); }

__global__ void k_split(const float2 *pts, int n, float cx, float cy, int *counts)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&counts[quadrant(pts[i].x, pts[i].y, cx, cy)], 1);
}

__global__ void k_build(const float2 *pts, int n, int *counts, float *density)
{
    if (threadIdx.x != 0) return;
    *density = cell_density(n, 1.0f);
    if (*density > 4.0f) k_split<<<(n + 127) / 128, 128>>>(pts, n, 0.5f, 0.5f, counts);
}
