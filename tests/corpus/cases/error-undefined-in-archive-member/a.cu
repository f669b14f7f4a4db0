// a kernel calling a function of the archived object
__device__ int from_lib(int x);
__global__ void ka(int *p) { p[0] = from_lib(p[1]); }
