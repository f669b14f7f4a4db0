// Kernels with no __shared__ variable of their own use file-scope arrays
// and extern __shared__ memory; ke3 has its own array; pick has a jump table.
extern __shared__ float e_dyn[];
__shared__ int e_file[12];
__shared__ int e_never[5];
__device__ __noinline__ int pick(int x) {
  switch (x) { case 0: return 3; case 1: return 7; case 2: return 11; case 3: return 19; case 4: return 23; case 5: return 31; default: return x; }
}
__global__ void ke1(int *p) { e_file[threadIdx.x % 12] = p[0]; __syncthreads(); p[1] = e_file[3] + pick(p[2]); }
__global__ void ke2(int *p) { e_dyn[threadIdx.x] = p[0]; e_file[1] = 2; __syncthreads(); p[1] = e_dyn[3] + e_file[0]; }
__global__ void ke3(int *p) { __shared__ int own[7]; own[threadIdx.x % 7] = p[0]; __syncthreads(); p[1] = own[2] + e_file[5]; }
