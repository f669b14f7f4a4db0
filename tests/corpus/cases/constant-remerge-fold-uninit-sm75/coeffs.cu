__constant__ float c_coeffs[4];
__global__ void apply_coeffs(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = p[i] * c_coeffs[i & 3];
}
void run_coeffs(float *p, int n) { apply_coeffs<<<(n + 127) / 128, 128>>>(p, n); }
