__constant__ int4 q7[1] = {{7,1,2,3}};
static __constant__ char c7[1] = {8};
static __constant__ short h7[1] = {8};
__global__ void k7(long long *o) { int i = threadIdx.x; o[i] = q7[0].x + c7[i%1] + h7[i%1]; }
