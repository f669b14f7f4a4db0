// Two weak template functions with bank-2 constants. Built with
// -prec-div=false, divmix<double> has 8-byte aligned constants and more
// registers than its -G copy, whose constants are 4-byte aligned.
template <typename T, int K> __device__ __noinline__ T blend(T a, T b) {
  T r = a;
  for (int q = 0; q < K; ++q) r = r * b + T(q);
  return r;
}
template <typename T> __device__ __noinline__ T divmix(T a, T b) { return a / b + b / (a + T(1)); }
