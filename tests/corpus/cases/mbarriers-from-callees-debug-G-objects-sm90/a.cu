#include "mb.h"
__device__ __noinline__ void init_one(uint64_t *b) { mb_init(b, 32); }
__device__ __noinline__ void init_two(uint64_t *b) { mb_init(b, 32); mb_init(b + 1, 32); }
__device__ __noinline__ void init_three(uint64_t *b) { __shared__ uint64_t own[3]; mb_init(own, 1); mb_init(own + 1, 1); mb_init(own + 2, 1); b[0] = own[0]; }
__device__ __noinline__ void plain(int *p) { p[0] = 1; }
