// Host: counts keys with warp-aggregated atomics and gathers warp votes.
#include <vector>
#include "warp.h"

int main()
{
    const int n = 1 << 14, nkeys = 13;
    std::vector<int> h(n);
    for (int i = 0; i < n; i++)
        h[i] = (i * 2654435761u >> 7) % nkeys;
    int *keys, *counters, *maxes;
    unsigned *votes;
    cudaMalloc(&keys, n * sizeof(int));
    cudaMalloc(&counters, nkeys * sizeof(int));
    cudaMalloc(&maxes, n / 32 * sizeof(int));
    cudaMalloc(&votes, n / 16 * sizeof(unsigned));
    cudaMemcpy(keys, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemset(counters, 0, nkeys * sizeof(int));
    aggregated_increment<<<n / 256, 256>>>(keys, n, counters);
    warp_stats<<<n / 256, 256>>>(keys, n, maxes, votes);
    std::vector<int> c(nkeys);
    cudaMemcpy(c.data(), counters, nkeys * sizeof(int), cudaMemcpyDeviceToHost);
    int total = 0;
    for (int v : c)
        total += v;
    std::printf("%d of %d counted\n", total, n);
    return total != n;
}
