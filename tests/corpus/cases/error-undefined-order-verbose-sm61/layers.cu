extern __device__ float bias[64];
extern __constant__ float gain;
__device__ float activation(float);
__device__ float dense(float x, int i) { return activation(x * gain + bias[i & 63]); }
__global__ void forward(float *x) { x[threadIdx.x] = dense(x[threadIdx.x], threadIdx.x); }
