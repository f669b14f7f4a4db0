// kU calls a function no input defines, but no host object launches kU, so the link prunes it and succeeds;
// kL, which host.cu launches, is kept
extern __device__ int missing(int);
__device__ int g_x;
__global__ void kU(int *o) { o[0] = missing(o[1]); }
__global__ void kL(int *o) { o[0] = g_x; }
