// Host: sums 1M floats through the staged pipeline and quantizes them.
#include <vector>
#include "ac.h"

int main()
{
    const int n = 1 << 20;
    std::vector<float> h(n, 0.5f);
    float *in, *out, hs = 0;
    __nv_bfloat16 *q;
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&out, sizeof(float));
    cudaMalloc(&q, n * sizeof(__nv_bfloat16));
    cudaMemcpy(in, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemset(out, 0, sizeof(float));
    staged_sum<<<80, 256>>>(in, n, out);
    quantize<<<n / 256, 256>>>(in, q, n, 2.0f);
    cudaMemcpy(&hs, out, sizeof hs, cudaMemcpyDeviceToHost);
    std::printf("sum %f (want %f)\n", hs, 0.5f * n);
    cudaFree(in); cudaFree(out); cudaFree(q);
    return hs != 0.5f * n;
}
