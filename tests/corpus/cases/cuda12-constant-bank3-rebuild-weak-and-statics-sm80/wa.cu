inline __constant__ short wvv[3] = {1, 2, 3};
inline __constant__ long long wll[2] = {4, 5};
__global__ void kwa(long long *o) { int i = threadIdx.x; o[i] = wvv[i % 3] + wll[i % 2]; }
