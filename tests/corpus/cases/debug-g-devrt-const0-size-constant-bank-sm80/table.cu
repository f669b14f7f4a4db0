// the program's __constant__ bank (.nv.constant3): 100 floats, 0x190 bytes
__constant__ float scale[100];
__global__ void touch(float *p) { p[threadIdx.x] = scale[threadIdx.x]; }
