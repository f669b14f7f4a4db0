// Two kernels with static shared memory of different sizes, one with none.
__global__ void tile5(int *p) {
  __shared__ int s[5];
  s[threadIdx.x % 5] = p[0];
  __syncthreads();
  p[threadIdx.x] = s[(threadIdx.x + 1) % 5];
}
__global__ void tile9(int *p) {
  __shared__ double s[9];
  s[threadIdx.x % 9] = p[1];
  __syncthreads();
  p[threadIdx.x] = (int)s[(threadIdx.x + 2) % 9];
}
__global__ void bump(int *p) { p[threadIdx.x] += 1; }
