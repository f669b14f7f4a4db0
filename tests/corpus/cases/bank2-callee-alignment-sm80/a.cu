// Kernels whose bank 2 mixes 8-byte constants (doubles) and 4-byte jump
// tables: k_own has its own 8-aligned constants, k_shared has none and shares
// callees with k_own, k_alone reaches only 4-aligned tables.
__device__ int pick4(int *o, int x);
__device__ int pick6(int *o, int x);
__device__ int pick5(int *o, int x);
__device__ double scale(double *d, int x);

__global__ void k_own(int *o, double *d, int x) {
  int r;
  switch (x) {
  case 0: r = o[1] * 3 + 1; break;
  case 1: r = o[2] * 10 + 14; break;
  case 2: r = o[3] * 17 + 27; break;
  case 3: r = o[4] * 24 + 40; break;
  case 4: r = o[5] * 31 + 53; break;
  default: r = -1;
  }
  d[0] = d[1] * 1.12345678901234567;
  o[0] = r + pick4(o, x) + pick6(o, x + 1) + pick5(o, x + 2);
}

__global__ void k_shared(int *o, double *d, int x) {
  d[2] = scale(d, x);
  o[0] = pick6(o, x) + pick4(o, x + 3);
}

__global__ void k_alone(int *o, int x) { o[0] = pick5(o, x) + pick6(o, x); }
