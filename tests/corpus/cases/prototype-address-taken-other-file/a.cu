// Takes the address of f, defined in b.cu, and of g, defined here.
typedef int (*fp)(int);
__device__ int f(int);
__device__ int g(int x) { return x * 3; }
__device__ fp table[2] = {f, g};
__global__ void k(int *o, int i) { o[0] = table[i & 1](o[1]); }
