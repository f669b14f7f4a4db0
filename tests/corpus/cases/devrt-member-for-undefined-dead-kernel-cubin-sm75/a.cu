// Two kernels; weigh calls a function no input defines. The link keeps
// only copy (-kernels-used), so the undefined function is no error.
__device__ float remote_weight(float x);

__global__ void weigh(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = remote_weight(in[i]);
}

__global__ void copy(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * 0.5f;
}
