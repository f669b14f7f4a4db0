// a weak function with bank-2 constants (double division) and an inline __device__ variable, initialized or, where ZERO is defined, without initializer
template <typename T> __device__ __noinline__ T divmix(T a, T b) { return a / b + b / (a + T(1)); }
#ifdef ZERO
inline __device__ float wv[4];
#else
inline __device__ float wv[4] = {1.5f, 2.5f};
#endif
