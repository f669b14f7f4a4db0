#include "mb.h"
__device__ __noinline__ void plain(int *p);
__global__ void k_one(int *p) { __shared__ uint64_t bar[4]; init_one(bar); p[0] = (int)bar[0]; }
__global__ void k_two_one(int *p) { __shared__ uint64_t bar[4]; init_two(bar); init_one(bar + 2); p[0] = (int)bar[0]; }
__global__ void k_self_and_callee(int *p) { __shared__ uint64_t bar[4]; mb_init(bar + 3, 4); init_two(bar); p[0] = (int)bar[3]; }
__global__ void k_three(int *p) { __shared__ uint64_t bar[4]; init_three(bar); init_two(bar); p[0] = (int)bar[0]; }
__global__ void k_none(int *p) { plain(p); }
