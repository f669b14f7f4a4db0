#pragma once
#include <cstdint>
__device__ __forceinline__ void mb_init(uint64_t *b, int n) {
  unsigned a = (unsigned)__cvta_generic_to_shared(b);
  asm volatile("mbarrier.init.shared.b64 [%0], %1;" :: "r"(a), "r"(n) : "memory");
}
__device__ __noinline__ void init_one(uint64_t *b);
__device__ __noinline__ void init_two(uint64_t *b);
__device__ __noinline__ void init_three(uint64_t *b);
