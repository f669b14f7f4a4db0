#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__device__ void grid_step(int *data, int n);
__global__ void k_keep(int *out)
{
	out[threadIdx.x] += 1;
}
__global__ void k_drop(int *data, int n)
{
	grid_step(data, n);
}
