__constant__ char gbig[0x9000] = {4};
__constant__ char g5[5] = {5};
__global__ void kh(long long *o) { int i = threadIdx.x; o[i] = gbig[i] + g5[i%5]; }
