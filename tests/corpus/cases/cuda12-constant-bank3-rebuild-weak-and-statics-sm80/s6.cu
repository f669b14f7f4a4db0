__constant__ int4 q6[1] = {{6,1,2,3}};
__constant__ char c6[5] = {7};
__constant__ short h6[5] = {7};
__global__ void k6(long long *o) { int i = threadIdx.x; o[i] = q6[0].x + c6[i%5] + h6[i%5]; }
