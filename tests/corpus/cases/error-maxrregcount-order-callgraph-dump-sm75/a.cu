// Compiled with -maxrregcount=24: each kernel gets EIATTR_MAXREG_COUNT 24.
__device__ long long hv1(long long x);
__device__ long long hv2(long long x);
__global__ void ka(long long *o) { o[threadIdx.x] = hv1(o[0]); }
__global__ void kb(long long *o) { o[threadIdx.x] = hv2(o[1]); }
__global__ void kc(long long *o) { o[threadIdx.x] = hv1(o[2]) + 1; }
