#include "stage.h"
#include <cuda/atomic>
__device__ void tally(unsigned long long* counter, unsigned long long v) {
  cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> ref(*counter);
  ref.fetch_add(v, cuda::std::memory_order_relaxed);
}
__device__ cuda::std::atomic<int> ticket;
__global__ void order_kernel(int* order, unsigned long long* counter) {
  cuda::std::atomic_ref<int> r(order[0]);
  int mine = ticket.fetch_add(1, cuda::std::memory_order_acq_rel);
  r.fetch_or(mine);
  auto warp = cg::tiled_partition<32>(cg::this_thread_block());
  int total = cg::reduce(warp, mine, cg::plus<int>());
  if (warp.thread_rank() == 0) tally(counter, total);
}
