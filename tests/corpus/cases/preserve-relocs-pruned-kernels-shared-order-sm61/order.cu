// Kernels -kernels-used=keep prunes, none with a __shared__ variable of its own:
// two share G2, two share G1, kB and kC each have a private array, kD only
// extern __shared__ memory. The sizes put neither order by size alone nor
// symbol order right.
extern __shared__ int gdyn[];
__shared__ int G1[4];
__shared__ int G2[40];
__shared__ int P1[2];
__shared__ int P2[60];
__global__ void kF(int *p) { G2[threadIdx.x % 8] = p[0]; __syncthreads(); p[1] = G2[1]; }
__global__ void kE(int *p) { G2[threadIdx.x % 8] = p[2]; __syncthreads(); p[1] = G2[2]; }
__global__ void kD(int *p) { gdyn[threadIdx.x] = p[2]; __syncthreads(); p[1] = gdyn[2]; }
__global__ void kC(int *p) { P2[threadIdx.x % 60] = p[2]; __syncthreads(); p[1] = P2[2]; }
__global__ void kB(int *p) { P1[threadIdx.x % 2] = p[2]; G1[threadIdx.x % 16] = 1; __syncthreads(); p[1] = P1[1] + G1[3]; }
__global__ void kA(int *p) { G1[threadIdx.x % 16] = p[2]; __syncthreads(); p[1] = G1[2]; }
__global__ void keep(int *p) { p[0] = 0; }
