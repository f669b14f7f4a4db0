// Host: 256x256x256 half-precision GEMM on tensor cores.
#include <vector>
#include "gemm.h"

int main()
{
    const int m = 256, n = 256, k = 256;
    float *fa, *fb, *c;
    half *a, *b;
    cudaMalloc(&fa, m * k * sizeof(float));
    cudaMalloc(&fb, k * n * sizeof(float));
    cudaMalloc(&a, m * k * sizeof(half));
    cudaMalloc(&b, k * n * sizeof(half));
    cudaMalloc(&c, m * n * sizeof(float));
    fill_pattern<float><<<m * k / 256, 256>>>(fa, m * k);
    fill_pattern<float><<<k * n / 256, 256>>>(fb, k * n);
    to_half<<<m * k / 256, 256>>>(fa, a, m * k);
    to_half<<<k * n / 256, 256>>>(fb, b, k * n);
    int warps = (m / TILE) * (n / TILE);
    gemm_wmma<<<warps * 32 / 128, 128>>>(a, b, c, m, n, k, 0.5f);
    std::vector<float> h(m * n);
    cudaMemcpy(h.data(), c, h.size() * sizeof(float), cudaMemcpyDeviceToHost);
    std::printf("c[0] = %f\n", h[0]);
    cudaFree(fa); cudaFree(fb); cudaFree(a); cudaFree(b); cudaFree(c);
    return 0;
}
