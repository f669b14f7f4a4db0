// a kernel template: every file that uses it defines a weak copy
template <typename T> __global__ void kt(T *p, int n) { if (threadIdx.x < n) p[threadIdx.x] += 1; }
