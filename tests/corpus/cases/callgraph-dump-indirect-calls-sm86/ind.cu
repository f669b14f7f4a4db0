__device__ __noinline__ float sq(float x) { return x * x; }
__device__ __noinline__ float cube(float x) { return x * x * x; }
__device__ __noinline__ int twice(int x) { return 2 * x; }
__device__ __noinline__ float direct1(float x) { return x + 1; }
__device__ __noinline__ float direct2(float x) { return x - 1; }
typedef float (*ff)(float);
typedef int (*ii)(int);
__device__ ff tab[2] = {sq, cube};
__device__ ii itab[1] = {twice};
__device__ __noinline__ float mixed(float x, int s) {
  float a = direct1(x);
  a += tab[s & 1](a);
  a += direct2(a);
  a += (float)itab[0](s);
  return a + tab[(s >> 1) & 1](x);
}
__global__ void kern(float *o, int s) { o[0] = mixed(o[1], s); }
