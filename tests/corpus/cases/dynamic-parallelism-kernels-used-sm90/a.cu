// parent launches child2, then child (b.cu); -kernels-used names parent and other.
// On sm_90 the code holds only their descriptors (FUNC_DESC32_LO/HI_32);
// nvlink lists them address-taken by symbol index (child2 first here).
__global__ void child(int *o, int d);
__global__ void child2(int *o);
__global__ void parent(int *o) {
  if (threadIdx.x == 0) { child2<<<1, 1>>>(o); child<<<2, 32>>>(o, 3); }
}
__global__ void other(int *o) { o[threadIdx.x] = 1; }
