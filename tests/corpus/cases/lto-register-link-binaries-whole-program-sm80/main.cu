__global__ void kapply(int *p, int n);
int main() {
  int *p;
  cudaMalloc(&p, 64 * sizeof(int));
  kapply<<<1, 32>>>(p, 64);
  return cudaDeviceSynchronize() != cudaSuccess;
}
