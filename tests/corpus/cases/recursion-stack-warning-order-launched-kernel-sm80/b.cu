// file b: rec recurses (the stack size of every kernel reaching it cannot be determined); kernel kB calls it
__device__ __noinline__ int rec(int n) { return n <= 0 ? 1 : n * 3 + rec(n - 1) + rec(n - 2); }
__global__ void kB(int *o) { o[0] = rec(o[1]) + 1; }
