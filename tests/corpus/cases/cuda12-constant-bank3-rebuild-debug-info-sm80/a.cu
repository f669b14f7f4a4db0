__constant__ int4 r1[1] = {{1,1,1,1}};
__constant__ char r2[16] = {2};
__constant__ long long r3[2] = {3};
__constant__ short r4[8] = {4};
__constant__ int r5[4] = {5};
__constant__ char r6[16] = {6};
__constant__ char big[0x6000] = {9};
__global__ void ka(long long *o) { int i = threadIdx.x; o[i] = r1[0].x + r2[i%16] + r3[i%2] + r4[i%8] + r5[i%4] + r6[i%16] + big[i]; }
