// Warp-aggregated atomics: one atomicAdd per distinct key in a warp.
#include "warp.h"

__global__ void aggregated_increment(const int *keys, int n, int *counters)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int key = keys[i];
    unsigned peers = lanes_with_same_key(key);
    int lane = threadIdx.x & 31;
    if (lane == leader_of(peers))
        atomicAdd(&counters[key], __popc(peers));
}

__global__ void warp_stats(const int *v, int n, int *maxes, unsigned *votes)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int x = i < n ? v[i] : 0;
    int m = butterfly_max(x);
    unsigned aa;
    unsigned b = vote_summary(x > 100, &aa);
    if ((threadIdx.x & 31) == 0) {
        int w = i / 32;
        maxes[w] = m;
        votes[2 * w] = b;
        votes[2 * w + 1] = aa;
    }
}
