// the only kernel reads no texture; a device function nothing calls reads two
texture<float, 1, cudaReadModeElementType> t_read_by_dead;
texture<float, 1, cudaReadModeElementType> t_other;
__device__ float dead_reader(int i) { return tex1Dfetch(t_read_by_dead, i) + tex1Dfetch(t_other, i); }
__device__ __noinline__ float live_helper(int i) { return i * 2.0f; }
__global__ void k_only(float *out) { out[threadIdx.x] = live_helper(threadIdx.x); }
