// pruned kernels with their own static shared memory (k_drop, k_drop2 kept with -kernels-used=drop2): own variables, dynamic
// shared memory, a function-level variable only a pruned kernel reaches (priv) and one only pruned kernels share (both)
extern __shared__ int dyn[];
__device__ __noinline__ int f_priv(int x) { __shared__ int priv[8]; priv[x & 7] = x; __syncthreads(); return priv[(x + 1) & 7]; }
__device__ __noinline__ int f_dyn(int x) { dyn[x] = x; __syncthreads(); return dyn[x + 1]; }
__device__ __noinline__ int f_both(int x) { __shared__ double both[4]; both[x & 3] = x; __syncthreads(); return both[0]; }
__global__ void k_keep(int *out) { out[threadIdx.x] = f_both(out[0]); }
__global__ void k_drop(int *out) { __shared__ int tile[64]; tile[threadIdx.x % 64] = out[0]; __syncthreads(); out[threadIdx.x] = tile[3] + f_priv(out[1]) + f_dyn(out[2]) + f_both(3); }
__global__ void k_drop2(int *out) { __shared__ char small[3]; small[threadIdx.x % 3] = 1; __syncthreads(); out[0] = small[1] + f_dyn(2); }
