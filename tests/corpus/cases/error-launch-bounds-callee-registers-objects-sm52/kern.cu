// __launch_bounds__ gives each kernel a register limit (EIATTR_MAXREG_COUNT):
// 256 threads x 4 blocks leave 64 registers on sm_52, 1024 x 2 leave 32,
// and 64 threads leave the whole 255.
#include "h.h"
__global__ void __launch_bounds__(256, 4) k_bounded(const double *p, double *o, int n) { o[threadIdx.x] = chain(p, n); }
__global__ void __launch_bounds__(1024, 2) k_tight(const double *p, double *o, int n) { o[threadIdx.x] = chain(p, n) + light(p); }
__global__ void __launch_bounds__(64) k_loose(const double *p, double *o, int n) { o[threadIdx.x] = heavy(p, n); }
__global__ void k_free(const double *p, double *o, int n) { o[threadIdx.x] = heavy(p, n); }
int main() { k_bounded<<<1, 256>>>(nullptr, nullptr, 0); k_tight<<<1, 1024>>>(nullptr, nullptr, 0); k_loose<<<1, 64>>>(nullptr, nullptr, 0); k_free<<<1, 1>>>(nullptr, nullptr, 0); return 0; }
