// Host: builds, measures and frees a scene of device-allocated objects.
#include "shapes.h"

int main()
{
    const int n = 1000;
    Shape **scene;
    float *area, h = 0;
    cudaDeviceSetLimit(cudaLimitMallocHeapSize, 8 << 20);
    cudaMalloc(&scene, n * sizeof(Shape *));
    cudaMalloc(&area, sizeof(float));
    cudaMemset(area, 0, sizeof(float));
    build<<<(n + 127) / 128, 128>>>(scene, n);
    total_area<<<(n + 127) / 128, 128>>>(scene, n, area);
    destroy<<<(n + 127) / 128, 128>>>(scene, n);
    cudaMemcpy(&h, area, sizeof h, cudaMemcpyDeviceToHost);
    std::printf("total area %f\n", h);
    cudaFree(scene); cudaFree(area);
    return 0;
}
