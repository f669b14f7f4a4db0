// Recursion inside one file: on sm_80 ptxas gives rec, odd, even and k2
// an EIATTR_CRS_STACK_SIZE record of 0, k1 (which calls only rec) and k3
// none.
__device__ int rec(int n) { return n <= 1 ? 1 : n * rec(n - 1); }
__device__ int even(int n);
__device__ int odd(int n) { return n == 0 ? 0 : even(n - 1); }
__device__ int even(int n) { return n == 0 ? 1 : odd(n - 1); }
__global__ void k1(int *o) { o[threadIdx.x] = rec(o[0]); }
__global__ void k2(int *o) { o[threadIdx.x] = odd(o[0]) + rec(o[2]); }
__global__ void k3(int *o) { o[threadIdx.x] = o[1] + 1; }
