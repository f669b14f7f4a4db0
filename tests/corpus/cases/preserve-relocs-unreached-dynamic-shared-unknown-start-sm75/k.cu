// One kernel reaches stat_user: its array is the kernel's own, and no module-wide .nv_debug.shared stays.
__device__ long long stat_user(long long x);
__global__ void only_kernel(long long *out) { out[threadIdx.x] = stat_user(out[0]); }
