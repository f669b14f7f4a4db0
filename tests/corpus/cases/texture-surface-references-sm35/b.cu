// the same texture reference declared again; a device function reading it and a texture object
texture<float, 1, cudaReadModeElementType> texA;
__device__ __noinline__ float fetch_both(cudaTextureObject_t t, int i) {
  float r = tex1Dfetch(texA, i + 1);
  if (t) r += tex1Dfetch<float>(t, i);
  return r;
}
__global__ void k_b(float *out) { out[threadIdx.x] = fetch_both(0, threadIdx.x); }
