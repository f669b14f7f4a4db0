// b.cu: a 16-byte __constant__ block
__constant__ int coeffs[4] = {1, 2, 3, 4};
__global__ void kb(long long *o) { o[threadIdx.x] = coeffs[threadIdx.x % 4]; }
