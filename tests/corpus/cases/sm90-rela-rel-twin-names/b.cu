// direct calls (one, two), calls through a function pointer before and after a direct one
__device__ __noinline__ int g(int x) { return x * 3; }
__device__ __noinline__ int h(int x) { return x * 5; }
__device__ int (*fp)(int) = h;
__device__ __noinline__ int ind_then_dir(int x) { int a = fp(x); return a + g(a); }
__device__ __noinline__ int dir_then_ind(int x) { int a = g(x); return a + fp(a); }
__device__ __noinline__ int two_ind(int x) { int a = fp(x); return a + fp(a + 1); }
__device__ __noinline__ int one_dir(int x) { return g(x) + 1; }
__device__ __noinline__ int two_dir(int x) { return g(x) + h(x + 1); }
__global__ void k2(int *o) { o[0] = ind_then_dir(o[1]) + dir_then_ind(o[2]) + two_ind(o[3]) + one_dir(o[4]) + two_dir(o[5]); }
