__constant__ int4 q2[1] = {{2,1,2,3}};
__constant__ char c2[7] = {3};
__constant__ short h2[7] = {3};
__global__ void k2(long long *o) { int i = threadIdx.x; o[i] = q2[0].x + c2[i%7] + h2[i%7]; }
