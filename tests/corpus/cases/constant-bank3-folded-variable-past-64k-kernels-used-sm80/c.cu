// c.cu: the same 16 bytes under another name
__constant__ int weights[4] = {1, 2, 3, 4};
__global__ void kc(long long *o) { o[threadIdx.x] = weights[threadIdx.x % 4]; }
