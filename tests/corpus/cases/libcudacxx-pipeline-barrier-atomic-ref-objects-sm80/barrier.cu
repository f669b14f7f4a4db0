#include "stage.h"
__device__ int phase_work(float* data, int n) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  __shared__ float tile[512];
  auto block = cg::this_thread_block();
  if (block.thread_rank() == 0) init(&bar, block.size());
  block.sync();
  cuda::memcpy_async(block, tile, data, sizeof(float) * (n < 512 ? n : 512), bar);
  bar.arrive_and_wait();
  int phases = 0;
  for (int i = threadIdx.x; i < 512; i += blockDim.x) tile[i] *= 2.f;
  auto token = bar.arrive();
  bar.wait(cuda::std::move(token));
  ++phases;
  data[threadIdx.x] = tile[threadIdx.x];
  return phases;
}
__global__ void barrier_kernel(float* data, int n, int* phases) {
  int p = phase_work(data, n);
  if (threadIdx.x == 0) atomicAdd(phases, p);
}
