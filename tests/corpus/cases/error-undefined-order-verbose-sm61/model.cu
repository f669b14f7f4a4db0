extern __device__ float bias[64];
extern __device__ int epoch;
__device__ float activation(float);
__device__ float loss(float, float);
__global__ void train(float *x, const float *y) {
  x[threadIdx.x] = loss(activation(x[threadIdx.x]), y[threadIdx.x]) + bias[0] + epoch;
}
