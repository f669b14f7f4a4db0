// references first created in this file, one read only by a function nothing calls; zeta again
texture<float, 1, cudaReadModeElementType> b_first;
surface<void, 1> qq_surface;
texture<float, 1, cudaReadModeElementType> zeta;
texture<float, 1, cudaReadModeElementType> onlyDead;
__device__ __noinline__ float shared_reader(int i) {
  float r = tex1Dfetch(b_first, i) + tex1Dfetch(zeta, i + 1);
  surf1Dwrite(r, qq_surface, i * 4);
  return r;
}
__device__ __noinline__ float never_called(int i) { return tex1Dfetch(onlyDead, i); }
