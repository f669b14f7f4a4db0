template <typename T> __device__ __noinline__ T dm(T a, T b) { return a / b + b / (a + T(1)); }
