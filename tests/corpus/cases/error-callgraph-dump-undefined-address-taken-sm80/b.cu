// b.cu: pointers to a defined function and to one no input defines, called through one of them
__device__ long long missing(long long x);
__device__ long long twice(long long x) { return 2 * x; }
typedef long long (*op_t)(long long);
__device__ op_t op_missing = missing;
__device__ op_t op_twice = twice;
__global__ void kcall(long long *o) { o[0] = op_twice(o[1]); }
__global__ void kplain(long long *o) { o[0] = 1; }
