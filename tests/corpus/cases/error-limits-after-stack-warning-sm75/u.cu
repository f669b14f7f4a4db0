extern __device__ int undef_fn(int);
__global__ void ku(int *p) { p[0] = undef_fn(p[1]); }
