// ptxas -ewp copies each noinline callee into every kernel that calls it:
// $kernel$function, demangled by nvlink as kernel::function.
template <typename T> __device__ __noinline__ T twice(T x) { return x + x; }
namespace ns {
static __device__ __noinline__ int tri(int x) { return 3 * x; }
}
template <typename T> __global__ void kt(T *p) { p[threadIdx.x] = twice(p[threadIdx.x]) + (T)ns::tri(threadIdx.x); }
template __global__ void kt<float>(float *);
template __global__ void kt<int>(int *);
void launch_kt(float *f, int *i) {
  kt<<<1, 32>>>(f);
  kt<<<1, 32>>>(i);
}
