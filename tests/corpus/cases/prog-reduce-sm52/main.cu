// Host driver: fills an array, reduces it two ways and checks the sums.
#include <vector>
#include <cmath>
#include "reduce.h"

int main()
{
    const int n = 1 << 20, threads = 256, blocks = 120;
    std::vector<float> h(n);
    double ref = 0;
    for (int i = 0; i < n; i++) {
        h[i] = (i % 17) * 0.25f;
        ref += h[i];
    }
    float *d_in, *d_part, *d_sum;
    CHECK(cudaMalloc(&d_in, n * sizeof(float)));
    CHECK(cudaMalloc(&d_part, 4096 * sizeof(float)));
    CHECK(cudaMalloc(&d_sum, sizeof(float)));
    CHECK(cudaMemcpy(d_in, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));

    reduce_grid_stride<<<blocks, threads>>>(d_in, d_part, n);
    finish_sum<<<1, 1024>>>(d_part, blocks, d_sum);
    float s1 = 0;
    CHECK(cudaMemcpy(&s1, d_sum, sizeof s1, cudaMemcpyDeviceToHost));

    int tb = (n + threads * 2 - 1) / (threads * 2);
    reduce_smem_tree<<<tb, threads, threads * sizeof(float)>>>(d_in, d_part, n);
    finish_sum<<<1, 1024>>>(d_part, tb, d_sum);
    float s2 = 0;
    CHECK(cudaMemcpy(&s2, d_sum, sizeof s2, cudaMemcpyDeviceToHost));

    unsigned long long calls = 0;
    CHECK(cudaMemcpyFromSymbol(&calls, g_calls, sizeof calls));
    std::printf("ref %.1f grid-stride %.1f tree %.1f (%llu block results)\n", ref, s1, s2, calls);
    cudaFree(d_in); cudaFree(d_part); cudaFree(d_sum);
    return std::fabs(s1 - ref) > 1e-3 * ref || std::fabs(s2 - ref) > 1e-3 * ref;
}
