// a kernel launching another from the device (CDP), built with -dlto for Jetson Orin sm_87
__global__ void child(float* d) { d[threadIdx.x] += 1.f; }
__global__ void parent(float* d) { if (threadIdx.x == 0) child<<<1, 32>>>(d); }
