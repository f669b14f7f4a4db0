// Takes the addresses of f1 and f2 (defined in y.cu) and of its own f3, and
// calls one of them through a pointer.
typedef int (*fp)(int);
__device__ int f1(int);
__device__ int f2(int);
__device__ int f3(int x) { return x ^ 3; }
__device__ fp table[3] = {f1, f2, f3};
__global__ void kx(int *o, int i) { o[0] = table[i % 3](o[1]); }
