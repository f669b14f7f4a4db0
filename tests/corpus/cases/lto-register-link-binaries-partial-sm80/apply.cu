__device__ int scale(int x);
__global__ void kapply(int *p, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x) p[i] = scale(p[i]);
}
