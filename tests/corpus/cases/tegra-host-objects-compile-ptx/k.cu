__device__ float scale = 2.0f;
extern __device__ float shift(float x);
__global__ void saxpy(float *y, const float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = shift(scale * x[i]) + y[i];
}
