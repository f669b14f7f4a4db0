// A table of device function pointers and a virtual call: on sm_90 12.x
// reaches them through the unified tables (__UFT, R_CUDA_UNIFIED).
typedef int (*step_fn)(int);
__device__ int inc(int x) { return x + 1; }
__device__ int dbl(int x) { return 2 * x; }
__device__ int neg(int x) { return -x; }
__device__ step_fn steps[3] = {inc, dbl, neg};
struct Shape { __device__ virtual int area() const { return 0; } };
struct Square : Shape { int s; __device__ Square(int v) : s(v) {} __device__ int area() const override { return s * s; } };
__device__ int apply_step(int which, int x) { return steps[which % 3](x); }
__global__ void scatter(int *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    Square sq(i);
    const Shape *sh = &sq;
    if (i < n) p[i] = apply_step(i, p[i]) + sh->area();
}
__global__ void finish(int *p) { p[0] = apply_step(p[1], p[0]); }
