// a.cu: 0x8000 bytes of __constant__ data
__constant__ char table[0x8000] = {1};
__global__ void ka(long long *o) { o[threadIdx.x] = table[threadIdx.x]; }
