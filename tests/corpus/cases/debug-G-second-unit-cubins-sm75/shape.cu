#include <new>
// A class hierarchy with virtual destructors: the vtables take the
// destructors' addresses. With -G the complete destructors call the base
// one (D2) instead of inlining it.
struct Base { __device__ virtual float size() const = 0; __device__ virtual ~Base() {} };
struct Box : Base { float w; __device__ Box(float x) : w(x) {} __device__ float size() const override; };
__device__ Base *make_ring(float r, void *mem);
__device__ float Box::size() const { return w * w; }
__device__ float (*g_scale)(float);
__global__ void k_shapes(float *o)
{
    char m1[32], m2[32];
    Base *a = new (m1) Box(o[0]);
    Base *b = make_ring(o[1], m2);
    o[threadIdx.x] = a->size() + b->size();
    a->~Base();
}
