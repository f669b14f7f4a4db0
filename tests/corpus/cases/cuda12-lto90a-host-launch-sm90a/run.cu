__device__ float scaled(float x);
__global__ void scale_all(float *v, int n);

__global__ void offset_all(float *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = scaled(v[i]) + 1.0f;
}

void run(float *v, int n) {
  scale_all<<<(n + 127) / 128, 128>>>(v, n);
  offset_all<<<(n + 127) / 128, 128>>>(v, n);
}
