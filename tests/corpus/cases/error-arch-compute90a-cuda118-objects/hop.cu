__device__ int hop_step(int x);
__global__ void hop(int *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = hop_step(v[i]);
}
int main() {
  int *v;
  cudaMalloc(&v, 64 * sizeof(int));
  hop<<<1, 64>>>(v, 64);
  return cudaDeviceSynchronize();
}
