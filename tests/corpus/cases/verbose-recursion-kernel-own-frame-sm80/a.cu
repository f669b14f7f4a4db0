__device__ int rec(int d);
__device__ __noinline__ int mid(int n, float *o) { float b[128]; for (int i = 0; i < 128; i++) b[i] = o[(i * n) & 127]; return rec(n) + (int)b[(n * 7) & 127]; }
__device__ __noinline__ int leaf(int n, float *o) { float b[16]; for (int i = 0; i < 16; i++) b[i] = o[(i * n) & 15]; return (int)b[(n * 3) & 15]; }
__global__ void k1(float *o, int n) { float b[256]; for (int i = 0; i < 256; i++) b[i] = o[(i * n) & 255]; o[0] = rec(n) + b[(n * 5) & 255]; }
__global__ void k2(float *o, int n) { o[0] = mid(n, o); }
__global__ void k3(float *o, int n) { float b[64]; for (int i = 0; i < 64; i++) b[i] = o[(i * n) & 63]; o[0] = mid(n, o) + leaf(n, o) + b[(n * 5) & 63]; }
__global__ void k4(float *o, int n) { o[0] = leaf(n, o) + rec(n); }
