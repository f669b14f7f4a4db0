__constant__ int4 q5[1] = {{5,1,2,3}};
static __constant__ char c5[2] = {6};
static __constant__ short h5[2] = {6};
__global__ void k5(long long *o) { int i = threadIdx.x; o[i] = q5[0].x + c5[i%2] + h5[i%2]; }
