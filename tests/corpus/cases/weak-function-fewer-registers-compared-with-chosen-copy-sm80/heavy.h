// A weak device function whose register count follows -maxrregcount.
template <int N>
__device__ __noinline__ float mix(const float* in, int n) {
  float acc[N];
#pragma unroll
  for (int i = 0; i < N; ++i) acc[i] = in[(threadIdx.x * (i + 3)) % n];
  float s = 0.f;
#pragma unroll
  for (int r = 0; r < 4; ++r) {
#pragma unroll
    for (int i = 0; i < N; ++i) {
      acc[i] = acc[i] * acc[(i + r + 1) % N] + acc[(i * 7 + r) % N];
      s += acc[i] * (float)(i + r);
    }
  }
  return s;
}
