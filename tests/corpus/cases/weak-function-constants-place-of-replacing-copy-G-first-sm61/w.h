// A weak template function: the -G copy has no bank-2 constants and more
// registers; an optimized copy keeps the loop's constants in bank 2.
template <typename T, int K> __device__ __noinline__ T blend(T a, T b) {
  T r = a;
  for (int q = 0; q < K; ++q) r = r * b + T(q);
  return r;
}
