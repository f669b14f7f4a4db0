// a.cu: the only code taking missing's address is a device function nothing calls
__device__ long long missing(long long x);
__device__ long long twice(long long x) { return 2 * x; }
typedef long long (*op_t)(long long);
__device__ op_t op;
__device__ __noinline__ void choose(int i) { op = i ? missing : twice; }
__global__ void kset(long long *o) { op = twice; }
