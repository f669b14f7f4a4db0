// One header, two shapes: the files built with -DHEAVY divide doubles
// (a call to __cuda_sm20_div_f64_slowpath_v2, more registers, bank-2
// constants), the others multiply.
template <typename T> __device__ __noinline__ T op(T a, T b) {
#ifdef HEAVY
  return a / b + b / (a + 1.0);
#else
  return a * b;
#endif
}
