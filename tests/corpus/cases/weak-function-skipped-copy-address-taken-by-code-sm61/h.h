// weak function templates with bank-2 constants
template <typename T> __device__ __noinline__ T tf(T a) { return a * T(1.000001) + T(0.333333333333); }
