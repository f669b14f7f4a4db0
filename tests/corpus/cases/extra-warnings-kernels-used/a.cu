__device__ __noinline__ int t1(int x) { return x + 1; }
__device__ __noinline__ int t2(int x) { return x + 2; }
__device__ __noinline__ int t3(int x) { return x + 3; }
__device__ __noinline__ float tf(float x) { return x * 2; }
__device__ __noinline__ int direct_and_taken(int x) { return x + 4; }
__device__ int (*p1)(int) = t1;
__device__ int (*p2)(int) = t2;
__device__ int (*p3)(int) = t3;
__device__ int (*p4)(int) = direct_and_taken;
__device__ float (*pf)(float) = tf;
__global__ void k_direct(int *o) { o[0] = direct_and_taken(o[1]); }
