// Tiled stencils with halos in static shared memory (one and two tiles per
// kernel), bounds checked with assert.
#include "stencil.h"

__global__ void stencil_x(const float *in, float *out)
{
    __shared__ float row[BX + 2 * RADIUS];
    int nx = grid_dims[0];
    int x = blockIdx.x * BX + threadIdx.x, y = blockIdx.y;
    assert(y < grid_dims[1]);
    row[threadIdx.x + RADIUS] = x < nx ? in[y * nx + x] : 0.0f;
    if (threadIdx.x < RADIUS) {
        int l = x - RADIUS, r = x + BX;
        row[threadIdx.x] = l >= 0 ? in[y * nx + l] : 0.0f;
        row[threadIdx.x + BX + RADIUS] = r < nx ? in[y * nx + r] : 0.0f;
    }
    __syncthreads();
    if (x < nx)
        out[y * nx + x] = apply_coeffs(row, threadIdx.x + RADIUS);
}

__global__ void stencil_2d(const float *in, float *out)
{
    __shared__ float tile[BY + 2 * RADIUS][BX + 2 * RADIUS];
    __shared__ float col[BX + 2 * RADIUS];
    __shared__ int edge_hits;
    int nx = grid_dims[0], ny = grid_dims[1];
    int x = blockIdx.x * BX + threadIdx.x, y = blockIdx.y * BY + threadIdx.y;
    if (threadIdx.x == 0 && threadIdx.y == 0)
        edge_hits = 0;
    for (int dy = threadIdx.y; dy < BY + 2 * RADIUS; dy += BY)
        for (int dx = threadIdx.x; dx < BX + 2 * RADIUS; dx += BX) {
            int gx = blockIdx.x * BX + dx - RADIUS, gy = blockIdx.y * BY + dy - RADIUS;
            bool inside = gx >= 0 && gx < nx && gy >= 0 && gy < ny;
            tile[dy][dx] = inside ? in[gy * nx + gx] : 0.0f;
            if (!inside)
                atomicAdd(&edge_hits, 1);
        }
    __syncthreads();
    float h = apply_coeffs(tile[threadIdx.y + RADIUS], threadIdx.x + RADIUS);
    for (int k = 0; k < BY + 2 * RADIUS; k++)
        col[k] = 0;
    if (threadIdx.y == 0)
        for (int k = 0; k < BY + 2 * RADIUS; k++)
            col[k] = tile[k][threadIdx.x + RADIUS];
    __syncthreads();
    if (x < nx && y < ny)
        out[y * nx + x] = h + 0.01f * edge_hits + 0.001f * col[threadIdx.y];
    if (x == 0 && y == 0)
        printf("block (0,0): %d halo cells outside\n", edge_hits);
}
