__constant__ float tableA[8000];   // 48 KB
__device__ float helper(int i);
extern __constant__ float tableB[6000];
__global__ void ka(float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tableA[i % 8000] + tableB[i % 6000] + helper(i);
}
