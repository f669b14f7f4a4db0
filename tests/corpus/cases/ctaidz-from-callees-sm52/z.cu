// Device functions read blockIdx.z; the kernels that call them (directly
// or through mid) do not, so ptxas gives only the functions CTAIDZ_USED.
__device__ __noinline__ int zed(int *p) { p[1] = 2; return blockIdx.z; }
__device__ __noinline__ int mid(int *p) { return zed(p) + 1; }
__global__ void k_z(int *p) { p[0] = zed(p); }
__global__ void k_mid(int *p) { p[0] = mid(p); }
__global__ void k_own(int *p) { p[0] = blockIdx.z + zed(p); }
__global__ void k_no(int *p) { p[0] = 3; }
