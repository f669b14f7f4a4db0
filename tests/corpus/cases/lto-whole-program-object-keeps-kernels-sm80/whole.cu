// nvcc -c: whole-program code, a host object without the .nvHR* reference lists
__global__ void whole(int *p) { p[threadIdx.x] = threadIdx.x; }
void launch_whole(int *p) { whole<<<1, 32>>>(p); }
