__device__ int f(int, int);
__device__ int g(int, int);

// Each reaches one table.
__global__ void k_f(const int *ops, int *vals) { vals[threadIdx.x] = f(ops[threadIdx.x], vals[0]); }
__global__ void k_g(const int *ops, int *vals) { vals[threadIdx.x] = g(ops[threadIdx.x], vals[0]); }
