#include <cuda_runtime.h>
__global__ void tail(int *p);
// a scheduler launching a graph, then itself again as a tail launch (CDP2, libcudadevrt)
__global__ void schedule(cudaGraphExec_t g, int *p) {
  if (threadIdx.x != 0) return;
  cudaGraphLaunch(g, cudaStreamGraphFireAndForget);
  tail<<<1, 1, 0, cudaStreamTailLaunch>>>(p);
}
