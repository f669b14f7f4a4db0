__device__ __noinline__ long long callee(long long *p, int i) { volatile long long loc[8]; for (int j = 0; j < 8; j++) loc[j] = p[j] * i; return loc[i & 7]; }
__global__ void kl(long long *o) { o[threadIdx.x] = 1; }
__global__ void kx(long long *o, int n) { volatile long long loc[6]; for (int j = 0; j < 6; j++) loc[j] = o[j + n]; o[0] = loc[n % 6] + callee(o, n); }
