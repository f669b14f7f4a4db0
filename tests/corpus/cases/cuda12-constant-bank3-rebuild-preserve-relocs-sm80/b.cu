__constant__ char padq[0x5000] = {7};
__constant__ char padr[16] = {7};
__constant__ char pads[3] = {7};
static __constant__ char padt[5] = {7};
__constant__ char usedq[16] = {7};
__global__ void kq(long long *o) { o[threadIdx.x] = usedq[threadIdx.x % 16]; }
