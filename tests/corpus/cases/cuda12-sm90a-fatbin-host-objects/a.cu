extern __device__ float combine(float a, float b);
__global__ void k_feature(float *p) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
  p[threadIdx.x] = combine(p[threadIdx.x], 90.5f);
#else
  p[threadIdx.x] = combine(p[threadIdx.x], 90.0f);
#endif
}
