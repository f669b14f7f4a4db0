// Defines the functions x.cu takes the addresses of.
__device__ int f1(int x) { return x + 1; }
__device__ int f2(int x) { return x + 2; }
