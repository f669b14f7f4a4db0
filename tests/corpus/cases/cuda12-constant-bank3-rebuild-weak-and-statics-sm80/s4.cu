__constant__ int4 q4[1] = {{4,1,2,3}};
__constant__ char c4[6] = {5};
__constant__ short h4[6] = {5};
__global__ void k4(long long *o) { int i = threadIdx.x; o[i] = q4[0].x + c4[i%6] + h4[i%6]; }
