// Tiles that refine themselves by launching child grids from the device.
__global__ void k_refine(float *tile, int level);

__device__ __noinline__ int tile_of() { return blockIdx.x + gridDim.x * blockIdx.y; }
__device__ __noinline__ void spawn(float *tile, int level) { k_refine<<<2, 64>>>(tile, level + 1); }

// Reads blockIdx itself and launches: the wrapper must be patched.
__global__ void k_refine(float *tile, int level)
{
    tile[blockIdx.x * 64 + threadIdx.x] *= 0.5f;
    if (level < 3 && threadIdx.x == 0) k_refine<<<2, 64>>>(tile + 128, level + 1);
}

// Reads blockIdx through a helper: the helper is patched, not the kernel.
__global__ void k_refine_helper(float *tile)
{
    int t = tile_of();
    if (threadIdx.x == 0 && tile[t] > 1.0f) spawn(tile, 0);
}

// Launches through a helper, reads blockIdx itself.
__global__ void k_refine_via(float *tile)
{
    if (blockIdx.y == 1 && threadIdx.x == 0) spawn(tile, 1);
}

// Launches without reading blockIdx: the wrapper only.
__global__ void k_refine_all(float *tile) { if (threadIdx.x == 0) spawn(tile, 2); }

// Reads blockIdx, launches nothing: neither.
__global__ void k_scale(float *tile) { tile[blockIdx.x * blockDim.x + threadIdx.x] *= 2.0f; }
