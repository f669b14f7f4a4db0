#include <cuda_runtime.h>
__device__ void retune(cudaGraphDeviceNode_t node, int n);
__global__ void update(cudaGraphDeviceNode_t node, cudaGraphConditionalHandle h, cudaGraphKernelNodeUpdate *u, int n) {
  retune(node, n);
  cudaGraphKernelNodeUpdatesApply(u, 1);
  cudaGraphSetConditional(h, n & 1);
}
__global__ void relaunch(cudaGraphExec_t g);
int main() {
  update<<<1, 1>>>(0, 0, 0, 1);
  relaunch<<<1, 1>>>(0);
}
