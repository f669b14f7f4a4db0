struct P { int n; float k[60]; };
__device__ float use_p(const P *p, int i);
__device__ __noinline__ void wg_fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
__global__ void __launch_bounds__(128) k_gc(const __grid_constant__ P p, float *o)
{
    wg_fence();
    o[threadIdx.x] = use_p(&p, threadIdx.x);
}
