__global__ void kc(long long *o, int n);
__global__ void ka(long long *o, int n) { if (threadIdx.x == 0) kc<<<1, 32>>>(o, n); o[1] = n; }
