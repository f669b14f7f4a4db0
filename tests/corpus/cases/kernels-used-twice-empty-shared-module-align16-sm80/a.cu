// KS (a 16-aligned __shared__ array) and KX (extern __shared__) launched from the host; devred launches KL from the device; K, KL and devred use no shared memory
template <typename T> __global__ void KS(T *p) { __shared__ __align__(16) T s[32]; s[threadIdx.x] = p[threadIdx.x]; __syncthreads(); p[threadIdx.x] = s[31 - threadIdx.x]; }
template <typename T> __global__ void KX(T *p) { extern __shared__ char dyn[]; T *d = (T *)dyn; d[threadIdx.x] = p[threadIdx.x]; __syncthreads(); p[threadIdx.x] = d[31 - threadIdx.x]; }
__global__ void K(int *p) { p[threadIdx.x] = 3; }
__global__ void KL(int *p) { p[threadIdx.x] += 5; }
__global__ void devred(int *p) { KL<<<1, 32>>>(p); }
void host(int *p) { KS<<<1, 32>>>(p); KX<<<1, 32, 128>>>(p); }
