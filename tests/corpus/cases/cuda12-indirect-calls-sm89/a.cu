typedef int (*binop)(int, int);
typedef float (*unop)(float);
extern __device__ binop pick_binop(int i);
extern __device__ unop pick_unop(int i);
__device__ __noinline__ int apply2(binop f, int a, int b) { return f(a, b); }
__global__ void k_bin(int *p, int i) { p[threadIdx.x] = apply2(pick_binop(i), p[threadIdx.x], i); }
__global__ void k_un(float *p, int i) { p[threadIdx.x] = pick_unop(i)(p[threadIdx.x]); }
