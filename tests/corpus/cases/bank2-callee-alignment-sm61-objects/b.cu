// Device functions with jump tables of 0x18 and 0x1c bytes (4-aligned) and
// one with a double constant (8-aligned).
__device__ __noinline__ int pick4(int *o, int x) {
  switch (x) {
  case 0: return o[1] * 3 + 1;
  case 1: return o[2] * 10 + 14;
  case 2: return o[3] * 17 + 27;
  case 3: return o[4] * 24 + 40;
  case 4: return o[5] * 31 + 53;
  default: return -1;
  }
}

__device__ __noinline__ int pick6(int *o, int x) {
  switch (x) {
  case 0: return o[1] * 5 + 2;
  case 1: return o[2] * 12 + 15;
  case 2: return o[3] * 19 + 28;
  case 3: return o[4] * 26 + 41;
  case 4: return o[5] * 33 + 54;
  case 5: return o[6] * 40 + 67;
  default: return -2;
  }
}

__device__ __noinline__ double scale(double *d, int x) {
  switch (x) {
  case 0: return d[1] * 2.718281828459045;
  case 1: return d[2] + 3.141592653589793;
  case 2: return d[3] - 1.414213562373095;
  case 3: return d[4] * 1.732050807568877;
  case 4: return d[5] / 2.236067977499789;
  default: return 0.5772156649015329;
  }
}

__device__ __noinline__ int pick5(int *o, int x) {
  switch (x) {
  case 0: return o[1] ^ 3;
  case 1: return o[2] | 10;
  case 2: return o[3] & 17;
  case 3: return o[4] - 24;
  case 4: return o[5] + 31;
  case 5: return o[6] * 38;
  default: return -3;
  }
}
