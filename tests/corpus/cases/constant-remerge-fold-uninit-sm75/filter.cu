__constant__ int c_taps[4];
__global__ void apply_taps(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] += c_taps[0] * p[i] + c_taps[3];
}
void run_taps(int *p, int n) { apply_taps<<<(n + 127) / 128, 128>>>(p, n); }
