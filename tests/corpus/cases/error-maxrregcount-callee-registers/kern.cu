// Compiled with -maxrregcount=24: every kernel gets EIATTR_MAXREG_COUNT 24.
#include "h.h"
__global__ void k_chain(const double *p, double *o, int n) { o[threadIdx.x] = chain(p, n); }
__global__ void k_mid(const double *p, double *o, int n) { o[threadIdx.x] = mid(p, n); }
__global__ void k_both(const double *p, double *o, int n) { o[threadIdx.x] = mid(p, n) + mid2(p, n); }
__global__ void k_both_rev(const double *p, double *o, int n) { o[threadIdx.x] = mid2(p, n) + mid(p, n); }
__global__ void k_light(const double *p, double *o, int n) { o[threadIdx.x] = light(p); }
