#pragma once
#include <cuda/pipeline>
#include <cuda/barrier>
#include <cuda/std/atomic>
#include <cuda/std/cstdint>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
// Double-buffered copy of TILE floats per stage through a block pipeline.
template <int TILE, int STAGES>
__device__ float staged_sum(const float* src, int tiles) {
  __shared__ alignas(16) float buf[STAGES][TILE];
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, STAGES> state;
  auto block = cg::this_thread_block();
  auto pipe = cuda::make_pipeline(block, &state);
  float acc = 0.f;
  for (int t = 0, fetch = 0; t < tiles; ++t) {
    for (; fetch < tiles && fetch < t + STAGES; ++fetch) {
      pipe.producer_acquire();
      cuda::memcpy_async(block, buf[fetch % STAGES], src + fetch * TILE, sizeof(float) * TILE, pipe);
      pipe.producer_commit();
    }
    pipe.consumer_wait();
    for (int j = threadIdx.x; j < TILE; j += blockDim.x) acc += buf[t % STAGES][j];
    pipe.consumer_release();
  }
  return acc;
}
__device__ void tally(unsigned long long* counter, unsigned long long v);
__device__ int phase_work(float* data, int n);
