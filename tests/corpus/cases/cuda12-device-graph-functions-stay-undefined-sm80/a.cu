#include <cuda_runtime.h>
// device graph launch and node updates: functions of the driver, in no library
__global__ void relaunch(cudaGraphExec_t g) {
  if (threadIdx.x == 0) cudaGraphLaunch(g, cudaStreamGraphFireAndForget);
}
__device__ void retune(cudaGraphDeviceNode_t node, int n) {
  cudaGraphKernelNodeSetParam(node, 0, n);
  cudaGraphKernelNodeSetGridDim(node, dim3(n, 1, 1));
  cudaGraphKernelNodeSetEnabled(node, n > 0);
}
