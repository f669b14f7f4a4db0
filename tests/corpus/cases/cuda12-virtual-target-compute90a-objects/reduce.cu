__device__ float tile_sum(const float *t, int n) {
  float s = 0;
  for (int i = threadIdx.x; i < n; i += blockDim.x) s += t[i];
  for (int o = 16; o > 0; o /= 2) s += __shfl_down_sync(0xffffffff, s, o);
  return s;
}
