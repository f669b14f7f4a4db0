extern __device__ int gain;
int main() {
  int v = 3;
  return cudaMemcpyToSymbol(gain, &v, sizeof v) != cudaSuccess;
}
