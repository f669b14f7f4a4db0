#include "stage.h"
__global__ void pipe_kernel(const float* src, float* out, unsigned long long* counter, int tiles) {
  float s = staged_sum<256, 2>(src + blockIdx.x * tiles * 256, tiles);
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
  tally(counter, (unsigned long long)s);
}
__global__ void pipe_kernel3(const float* src, float* out, int tiles) {
  out[threadIdx.x] = staged_sum<128, 3>(src, tiles);
}
