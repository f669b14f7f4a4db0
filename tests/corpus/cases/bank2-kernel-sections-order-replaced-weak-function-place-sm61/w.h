// Weak template functions with bank-2 constants (loop constants, a float
// division's slow path) in most builds.
template <typename T, int K> __device__ __noinline__ T blend(T a, T b) {
  T r = a;
  for (int q = 0; q < K; ++q) r = r * b + T(q);
  return r;
}
template <typename T> __device__ __noinline__ T divmix(T a, T b) { return a / b + b / (a + T(1)); }
template <typename T> __device__ __noinline__ T nest(T a) { return divmix<T>(a, T(3)) + blend<T, 2>(a, a); }
