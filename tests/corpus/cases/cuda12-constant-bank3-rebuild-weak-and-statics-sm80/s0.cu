__constant__ int4 q0[1] = {{0,1,2,3}};
__constant__ char c0[1] = {1};
__constant__ short h0[1] = {1};
__global__ void k0(long long *o) { int i = threadIdx.x; o[i] = q0[0].x + c0[i%1] + h0[i%1]; }
