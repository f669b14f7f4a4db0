// With -G, ptxas gives the kernels making a virtual call (and the virtual
// functions) an EIATTR_CRS_STACK_SIZE record of 0; k_virtual_rec also
// reaches the recursion in b.cu, which only the link finds.
struct Shape { __device__ virtual float area() const { return 1; } };
struct Sq : Shape { float s; __device__ Sq(float s) : s(s) {} __device__ float area() const override { return s * s; } };
__device__ int rec(int n);
__global__ void k_virtual_rec(float *o) { Sq q(o[0]); Shape *s = &q; if (threadIdx.x == 1) s = (Shape *)(o + 8); o[1] = s->area() + rec(threadIdx.x); }
__global__ void k_virtual(float *o) { Sq q(o[0]); Shape *s = &q; if (threadIdx.x == 1) s = (Shape *)(o + 8); o[1] = s->area(); }
__global__ void k_rec(float *o) { o[1] = rec(threadIdx.x); }
