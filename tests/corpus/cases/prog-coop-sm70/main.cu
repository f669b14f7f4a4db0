// Host: a cooperative launch (cudaLaunchCooperativeKernel) sized from the
// occupancy calculator, then an ordinary launch.
#include <vector>
#include "coop.h"

int main()
{
    int dev = 0, coop = 0, sms = 0, per_sm = 0;
    cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (!coop) {
        std::printf("no cooperative launch\n");
        return 0;
    }
    const int n = 1 << 16, threads = 128;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, relax, threads, 0);
    float *a, *b, *res;
    cudaMalloc(&a, n * sizeof(float));
    cudaMalloc(&b, n * sizeof(float));
    cudaMalloc(&res, sizeof(float));
    cudaMemset(a, 0, n * sizeof(float));
    cudaMemset(res, 0, sizeof(float));
    int iters = 10;
    int nn = n;
    void *args[] = {&a, &b, &nn, &iters, &res};
    cudaLaunchCooperativeKernel((void *)relax, dim3(sms * per_sm), dim3(threads), args, 0, 0);

    std::vector<int> keys(n);
    for (int i = 0; i < n; i++)
        keys[i] = i % 8;
    int *d_keys, *d_counts, h_counts[8];
    cudaMalloc(&d_keys, n * sizeof(int));
    cudaMalloc(&d_counts, 8 * sizeof(int));
    cudaMemcpy(d_keys, keys.data(), n * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemset(d_counts, 0, 8 * sizeof(int));
    histogram_tiles<<<n / 256, 256>>>(d_keys, n, d_counts);
    cudaMemcpy(h_counts, d_counts, sizeof h_counts, cudaMemcpyDeviceToHost);
    std::printf("bin0 %d\n", h_counts[0]);
    return cudaDeviceSynchronize() != cudaSuccess;
}
