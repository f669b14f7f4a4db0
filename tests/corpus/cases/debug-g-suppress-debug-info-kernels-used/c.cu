// file c: a kernel calling a function of b and one of d (a second input with a placeholder symbol)
extern __device__ int b_scale(int);
extern __device__ int d_twice(int);
__global__ void k_c(int *p, int n) { p[n] = b_scale(n) + d_twice(n); }
