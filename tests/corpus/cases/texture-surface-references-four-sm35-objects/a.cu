// three textures and a surface read by one kernel, the surface first
texture<float, 1, cudaReadModeElementType> tc;
texture<float, 1, cudaReadModeElementType> ta;
surface<void, 1> sfirst;
texture<float, 1, cudaReadModeElementType> tb;
__global__ void k(float *out) {
  int i = threadIdx.x;
  surf1Dwrite(1.0f, sfirst, i * 4);
  out[i] = tex1Dfetch(tb, i) + tex1Dfetch(tc, i) * tex1Dfetch(ta, i);
}
