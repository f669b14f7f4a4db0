__device__ int f(int, int);
__device__ int g(int, int);

// Reaches both tables.
__global__ void k_both(const int *ops, int *vals) { vals[threadIdx.x] = f(ops[threadIdx.x], vals[0]) + g(ops[1], vals[2]); }
