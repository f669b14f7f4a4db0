// A kernel that walks an array with a step another file defines.
extern __device__ int step_of(int i);

__global__ void walk(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = step_of(i) + out[i];
}
