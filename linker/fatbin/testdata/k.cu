// Small relocatable device code for the fatbin tests.
extern __device__ int helper(int);
__device__ int counter;
__global__ void kadd(int *p) { p[threadIdx.x] = helper(p[threadIdx.x]) + counter; }
