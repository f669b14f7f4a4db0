// Kernels of one time step, and the host code that captures them into a
// CUDA graph (stream capture with a memset node) and instantiates it.
#include "graph.h"

__global__ void integrate(Particle *p, int n, float dt)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float2 f = field_at(p[i].x, p[i].y);
    p[i].vx += f.x * dt;
    p[i].vy += f.y * dt;
    p[i].x += p[i].vx * dt;
    p[i].y += p[i].vy * dt;
}

__global__ void bounce(Particle *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    if (fabsf(p[i].x) > 10.0f) p[i].vx = -p[i].vx;
    if (fabsf(p[i].y) > 10.0f) p[i].vy = -p[i].vy;
    p[i].x = clampf(p[i].x, -10.0f, 10.0f);
    p[i].y = clampf(p[i].y, -10.0f, 10.0f);
}

int build_graph(cudaGraphExec_t *exec, cudaStream_t s, Particle *p, int n, float *e)
{
    cudaGraph_t g;
    int blocks = (n + 255) / 256;
    if (cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) != cudaSuccess)
        return 1;
    for (int k = 0; k < 4; k++) {
        integrate<<<blocks, 256, 0, s>>>(p, n, 0.01f);
        bounce<<<blocks, 256, 0, s>>>(p, n);
    }
    cudaMemsetAsync(e, 0, sizeof(float), s);
    energy<<<blocks, 256, 0, s>>>(p, n, e);
    if (cudaStreamEndCapture(s, &g) != cudaSuccess)
        return 1;
    size_t nodes = 0;
    cudaGraphGetNodes(g, nullptr, &nodes);
    std::printf("captured %zu nodes\n", nodes);
    int err = cudaGraphInstantiate(exec, g, nullptr, nullptr, 0) != cudaSuccess;
    cudaGraphDestroy(g);
    return err;
}
