// sreg-cooperative-groups-sm52: a block-level group kernel without parameters, and one with
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

extern __device__ int total;

__global__ void block_reduce() {
    cg::thread_block block = cg::this_thread_block();
    __shared__ int acc;
    if (block.thread_rank() == 0) acc = 0;
    block.sync();
    atomicAdd(&acc, (int)block.thread_rank());
    block.sync();
    if (block.thread_rank() == 0) atomicAdd(&total, acc);
}

__global__ void scale(int *out, int by) { out[threadIdx.x] = total * by; }

void launch_b(int *out) { block_reduce<<<1, 64>>>(); scale<<<1, 32>>>(out, 2); }
