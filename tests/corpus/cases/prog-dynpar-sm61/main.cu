// Host: sorts random keys with the device-launched quicksort.
#include <vector>
#include <cstdlib>
#include "qs.h"

int main()
{
    const int n = 4096;
    std::vector<unsigned> h(n);
    srand(7);
    for (auto &v : h)
        v = rand();
    unsigned *d;
    int *visits;
    cudaMalloc(&d, n * sizeof(unsigned));
    cudaMalloc(&visits, 4 * sizeof(int));
    cudaMemset(visits, 0, 4 * sizeof(int));
    cudaMemcpy(d, h.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice);
    cudaDeviceSetLimit(cudaLimitDevRuntimeSyncDepth, QS_MAX_DEPTH);
    quicksort<<<1, 1>>>(d, 0, n - 1, 0);
    launch_tree<<<1, 1>>>(visits, 0, 3);
    cudaDeviceSynchronize();
    cudaMemcpy(h.data(), d, n * sizeof(unsigned), cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 1; i < n; i++)
        bad += h[i - 1] > h[i];
    std::printf("%d inversions\n", bad);
    cudaFree(d); cudaFree(visits);
    return bad != 0;
}
