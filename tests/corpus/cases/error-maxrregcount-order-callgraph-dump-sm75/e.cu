__device__ long long hv2(long long x);
__global__ void ke(long long *o) { __shared__ char big[70000]; big[threadIdx.x] = o[0]; __syncthreads(); o[threadIdx.x] = big[threadIdx.x + 69000] + hv2(o[4]); }
