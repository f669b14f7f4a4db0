#define BIG(n) __device__ __noinline__ float big##n(int i) { __shared__ float s[10000]; s[i] = i; __syncthreads(); return s[i ^ 3]; }
BIG(1)
BIG(2)
BIG(3)
BIG(4)
