__device__ __noinline__ int depth(int n) { return n <= 0 ? 0 : n + depth(n - 1); }
__global__ void sums(int *out) { out[threadIdx.x] = depth(threadIdx.x & 7); }
void launch_sort(int *a, int rows, int cols);
int main() {
  int *d;
  cudaMalloc(&d, 1024 * sizeof(int));
  launch_sort(d, 16, 64);
  sums<<<1, 32>>>(d);
  return cudaDeviceSynchronize();
}
