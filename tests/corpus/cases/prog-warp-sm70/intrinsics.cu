// Warp intrinsics: __match_any_sync to group lanes by key, __ballot_sync,
// __any_sync/__all_sync, __shfl_xor_sync butterflies, __activemask.
#include "warp.h"

__device__ unsigned lanes_with_same_key(int key)
{
    return __match_any_sync(__activemask(), key);
}

__device__ int leader_of(unsigned mask)
{
    return __ffs(mask) - 1;
}

__device__ int butterfly_max(int v)
{
    for (int m = 16; m > 0; m >>= 1)
        v = max(v, __shfl_xor_sync(0xffffffffu, v, m));
    return v;
}

__device__ unsigned vote_summary(bool p, unsigned *any_all)
{
    unsigned b = __ballot_sync(0xffffffffu, p);
    *any_all = (__any_sync(0xffffffffu, p) ? 1u : 0u) | (__all_sync(0xffffffffu, p) ? 2u : 0u);
    return b;
}
