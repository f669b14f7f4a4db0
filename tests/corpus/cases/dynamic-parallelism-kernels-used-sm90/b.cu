// child2 reads blockIdx.z (CTAIDZ_USED); lone is left out and removed.
__device__ int child_done;
__global__ void child(int *o, int d) { o[threadIdx.x] += d; if (threadIdx.x == 0) atomicAdd(&child_done, 1); }
__global__ void child2(int *o) { o[blockIdx.z] = 2; }
__global__ void lone(int *o) { o[0] = 5; }
