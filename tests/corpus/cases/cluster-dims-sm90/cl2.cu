// cluster-dims-sm90, file cl2: the device function the cluster kernels call, and a __launch_bounds__ kernel
__device__ __noinline__ float work(float x) { return x * 3.0f + 1.0f; }
__global__ void __launch_bounds__(256, 1) kplain(float *o) { o[threadIdx.x] = work(o[threadIdx.x]); }
