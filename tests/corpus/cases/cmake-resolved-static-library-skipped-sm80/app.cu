__device__ float scale(float x);
__global__ void run(float *p) { p[threadIdx.x] = scale(p[threadIdx.x]); }
int main() { run<<<1, 32>>>(0); }
