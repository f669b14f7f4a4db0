// Kernels reading and writing the managed arrays and counters directly.
#include "sim.h"

__managed__ float scratch[NCELLS];

__global__ void diffuse(float alpha)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < NCELLS)
        scratch[i] = (1 - alpha) * grid_a[i] + alpha * neighbour_avg(grid_a, i);
    __syncthreads();
    if (i < NCELLS)
        grid_a[i] = scratch[i];
    if (i == 0) {
        stats.steps++;
        generation++;
    }
}

__global__ void collect()
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < NCELLS) {
        atomicAdd(&stats.total, grid_a[i]);
        float v = grid_a[i];
        int *peak = (int *)&stats.peak;
        atomicMax(peak, __float_as_int(v));
    }
}
