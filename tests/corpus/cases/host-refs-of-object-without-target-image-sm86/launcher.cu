// launches k.cu's idle kernel from host code; its own device code is only for sm_70
__global__ void idle(float *p);

__global__ void launcher_kernel(float *p) { p[0] = 1.0f; }

void run_idle(float *p) { idle<<<1, 64>>>(p); }
