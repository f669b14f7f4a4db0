__constant__ int4 q1[1] = {{1,1,2,3}};
static __constant__ char c1[4] = {2};
static __constant__ short h1[4] = {2};
__global__ void k1(long long *o) { int i = threadIdx.x; o[i] = q1[0].x + c1[i%4] + h1[i%4]; }
