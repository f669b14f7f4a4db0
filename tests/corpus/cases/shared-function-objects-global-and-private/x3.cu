// file 3: kernels; X2 is reached by ky and kx (global: one offset), X1, Z1 and tf's arrays by one kernel each (private: laid out with that kernel's own arrays)
extern __device__ int fx1(int);
extern __device__ int fx2(int);
extern __device__ int fz1(int);
extern __device__ int tf(int);
__global__ void ky(int *o) { o[0] = fx2(1) + fz1(2); }
__global__ void kx(int *o) { o[0] = fx1(1) + fx2(2); }
__global__ void kt(int *o)
{
    __shared__ int ta[3];
    ta[threadIdx.x % 3] = 1;
    o[0] = tf(ta[0]) + fx2(ta[1]);
}
