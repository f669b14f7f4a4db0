__constant__ char pad[0xa000] = {7};
__constant__ char pad_small[3] = {1, 2, 3};
__global__ void kp(long long *o) { o[threadIdx.x] = pad[threadIdx.x] + pad_small[threadIdx.x % 3]; }
static __constant__ char st[16] = {5};
__global__ void kst(long long *o) { o[threadIdx.x] = st[threadIdx.x % 16]; }
