// wgmma fences and a warpgroup register reallocation: sm_90a only.
extern __device__ float combine(float a, float b);
__device__ __noinline__ float bias(float x) { return x * 0.5f + 1.0f; }
__global__ void __launch_bounds__(128) k_wgmma(float *p) {
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
  p[threadIdx.x] = combine(bias(p[threadIdx.x]), 2.0f);
}
__global__ void __launch_bounds__(256) k_setmaxnreg(float *p) {
  asm volatile("setmaxnreg.inc.sync.aligned.u32 232;\n");
  p[threadIdx.x] = bias(p[threadIdx.x]);
}
