__shared__ float tile[64];
__device__ __noinline__ float via(const float *in) { tile[threadIdx.x] = in[threadIdx.x]; __syncthreads(); return tile[63 - threadIdx.x]; }
__global__ void a_none(int *p) { p[threadIdx.x] += 1; }
__global__ void b_dyn(float *p) { extern __shared__ float dd[]; dd[threadIdx.x] = p[0]; __syncthreads(); p[1] = dd[3]; }
__global__ void c_via(const float *in, float *out) { out[threadIdx.x] = via(in); }
__global__ void d_direct(float *p) { tile[threadIdx.x] = p[0]; __syncthreads(); p[1] = tile[5]; }
