// Host: builds the step graph once and replays it.
#include <vector>
#include "graph.h"

int main()
{
    const int n = 4096;
    std::vector<Particle> h(n);
    for (int i = 0; i < n; i++)
        h[i] = Particle{(i % 64) * 0.1f - 3.2f, (i / 64) * 0.1f - 3.2f, 0.0f, 0.0f};
    Particle *d;
    float *e;
    cudaMalloc(&d, n * sizeof(Particle));
    cudaMalloc(&e, sizeof(float));
    cudaMemcpy(d, h.data(), n * sizeof(Particle), cudaMemcpyHostToDevice);
    cudaStream_t s;
    cudaStreamCreate(&s);
    cudaGraphExec_t exec;
    if (build_graph(&exec, s, d, n, e))
        return 1;
    float he = 0;
    for (int rep = 0; rep < 20; rep++)
        cudaGraphLaunch(exec, s);
    cudaMemcpyAsync(&he, e, sizeof he, cudaMemcpyDeviceToHost, s);
    cudaStreamSynchronize(s);
    std::printf("kinetic energy %f\n", he);
    cudaGraphExecDestroy(exec);
    cudaStreamDestroy(s);
    cudaFree(d); cudaFree(e);
    return 0;
}
