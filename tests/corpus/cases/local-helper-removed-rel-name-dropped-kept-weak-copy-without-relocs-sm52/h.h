template <typename T> __device__ __noinline__ T rootmix(T a) { return sqrt(a) + T(1) / (a + T(2)); }
