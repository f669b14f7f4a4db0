// two kernels share a device function that uses a file-scope array
__shared__ float tile[32][33];
__shared__ double acc[8];
__device__ __noinline__ float transpose_at(const float *in, int n) {
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * n + threadIdx.x];
  __syncthreads();
  return tile[threadIdx.x][threadIdx.y];
}
__global__ void t1(const float *in, float *out, int n) { out[threadIdx.x] = transpose_at(in, n); }
__global__ void t2(const float *in, float *out, int n) {
  extern __shared__ double dyn[];
  dyn[threadIdx.x] = transpose_at(in, n); acc[threadIdx.x & 7] += dyn[0];
  __syncthreads(); out[0] = acc[1];
}
__global__ void t3(int *p) { __shared__ int loc[4]; loc[threadIdx.x & 3] = p[0]; __syncthreads(); p[1] = loc[2]; }
