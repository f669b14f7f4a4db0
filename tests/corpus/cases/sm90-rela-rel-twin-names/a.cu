// calls and virtual calls in either order (virtual, then direct; direct, then virtual)
struct S { __device__ virtual int f(int x) { return x + 1; } };
__device__ int g(int x); // b.cu
__device__ __noinline__ int virt_then_dir(S *s, int x) { int a = s->f(x); return g(a); }
__device__ __noinline__ int dir_then_virt(S *s, int x) { int a = g(x); return s->f(a); }
__global__ void k1(int *o) { S s; o[0] = virt_then_dir(&s, o[1]) + dir_then_virt(&s, o[2]); }
