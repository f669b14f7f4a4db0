extern __device__ int ext1(int);
extern __device__ int ext2(int);
extern __device__ int only_dead_calls(int);
template <typename T> __device__ __noinline__ T twice(T x) { return x + x; }
static __device__ __noinline__ int local_fn(int x) { return x * 3; }
__device__ __noinline__ int heavy(float *p, int n)
{
    float acc[32];
    for (int i = 0; i < 32; i++) acc[i] = p[i * n];
    float s = 0;
    for (int i = 0; i < 32; i++) s += acc[i] * acc[(i * 7) % 32];
    return (int)s;
}
__device__ __noinline__ int dead(int x) { return only_dead_calls(x); }
extern "C" __device__ __noinline__ int c_linkage(int x) { return x - 1; }
__global__ void k_light(float *p, int *o) { o[0] = heavy(p, o[1]); }
__global__ void k_a(int *o) { o[0] = ext1(o[1]) + twice(o[2]) + local_fn(o[3]) + c_linkage(o[4]); }
