// Host: runs the application kernel and the library's kernel.
#include <vector>
#include "vecmath.h"

__global__ void torques(const V3 *pos, const V3 *force, V3 *tau, int n);

int main()
{
    const int n = 4096;
    std::vector<V3> h(n);
    for (int i = 0; i < n; i++)
        h[i] = V3{1.0f + i, 2.0f, 3.0f};
    V3 *p, *f, *t;
    cudaMalloc(&p, n * sizeof(V3));
    cudaMalloc(&f, n * sizeof(V3));
    cudaMalloc(&t, n * sizeof(V3));
    cudaMemcpy(p, h.data(), n * sizeof(V3), cudaMemcpyHostToDevice);
    cudaMemcpy(f, h.data(), n * sizeof(V3), cudaMemcpyHostToDevice);
    torques<<<n / 128, 128>>>(p, f, t, n);
    normalize_all<<<n / 128, 128>>>(p, n);
    int calls = 0;
    cudaMemcpyFromSymbol(&calls, vecmath_calls, sizeof calls);
    std::printf("%d library calls\n", calls);
    cudaFree(p); cudaFree(f); cudaFree(t);
    return 0;
}
