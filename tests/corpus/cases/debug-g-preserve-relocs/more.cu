// a second -G file: the variable vars.cu uses, a kernel with its own dynamic shared array, a kernel without shared memory
extern __shared__ float more_dyn[];
__device__ int u_total = 100;
__global__ void k_more(float *out) { more_dyn[threadIdx.x] = 1; out[0] = more_dyn[1] + u_total; }
__global__ void k_plain(int *out) { out[0] = u_total; }
