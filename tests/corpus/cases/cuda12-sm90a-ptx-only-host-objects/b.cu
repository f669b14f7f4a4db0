struct P { int n; float k[60]; };
__device__ __noinline__ float use_p(const P *p, int i) { return p->k[i % 60] * p->n; }
__global__ void k_plain(float *o) { P p = {3, {1.0f}}; o[threadIdx.x] = use_p(&p, threadIdx.x); }
