// Kernels with 0 to 3 calls to device functions in b.cu, direct and
// indirect: each kernel's .rela.text.<k> differs only in where its
// zero-addend call entries fall.
__device__ float f1(float r, int i);
__device__ float f2(float r, int i);
typedef float (*fp_t)(float, int);

__global__ void no_call(float *out) { int i = threadIdx.x; out[i] = out[i] * 2.0f; }
__global__ void one_call(float *out) { int i = threadIdx.x; float r = out[i]; r += f1(r, i); out[i] = r; }
__global__ void two_calls(float *out) { int i = threadIdx.x; float r = out[i]; r += f1(r, i); r += f2(r, i); out[i] = r; }
__global__ void same_twice(float *out) { int i = threadIdx.x; float r = out[i]; r += f1(r, i); r += f1(r, i + 1); out[i] = r; }
__global__ void three_calls(float *out) { int i = threadIdx.x; float r = out[i]; r += f1(r, i); r += f2(r, i); r += f1(r, i + 2); out[i] = r; }
__global__ void direct_then_indirect(float *out, fp_t fp) { int i = threadIdx.x; float r = out[i]; r += f1(r, i); r += fp(r, i); out[i] = r; }
__global__ void indirect_then_direct(float *out, fp_t fp) { int i = threadIdx.x; float r = out[i]; r += fp(r, i); r += f1(r, i); out[i] = r; }
