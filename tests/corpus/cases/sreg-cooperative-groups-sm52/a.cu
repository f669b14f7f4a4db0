// sreg-cooperative-groups-sm52: a grid-synchronising kernel without parameters
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__device__ int arrivals;
__device__ int total;

__global__ void count_then_sum() {
    cg::grid_group grid = cg::this_grid();
    atomicAdd(&arrivals, 1);
    grid.sync();
    if (grid.thread_rank() == 0) total = arrivals;
}

void launch_a() {
    void *args[] = {nullptr};
    cudaLaunchCooperativeKernel((void *)count_then_sum, 2, 32, args);
}
