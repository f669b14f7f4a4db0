__constant__ int4 q3[1] = {{3,1,2,3}};
static __constant__ char c3[3] = {4};
static __constant__ short h3[3] = {4};
__global__ void k3(long long *o) { int i = threadIdx.x; o[i] = q3[0].x + c3[i%3] + h3[i%3]; }
