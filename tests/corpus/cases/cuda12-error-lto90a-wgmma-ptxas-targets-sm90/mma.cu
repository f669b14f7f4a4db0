#include <cstdint>

__device__ float finish(float x);

// One warpgroup-wide MMA: an instruction of sm_90a only.
__global__ void __launch_bounds__(128) tile_mma(const uint64_t *desc, float *out) {
  float d0 = 0, d1 = 0, d2 = 0, d3 = 0;
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
  asm volatile("wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%0, %1, %2, %3}, %4, %5, 1, 1, 1, 0, 0;\n"
               : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
               : "l"(desc[0]), "l"(desc[1]));
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
  out[threadIdx.x] = finish(d0 + d1 + d2 + d3);
}
