// Kernels over a scene of shapes: virtual calls across files, delete.
#include "shapes.h"

__global__ void build(Shape **scene, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        scene[i] = make_shape(i & 1, i);
}

__global__ void total_area(Shape *const *scene, int n, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && scene[i]) {
        atomicAdd(out, scene[i]->area());
        if (i < 2)
            printf("%d: %s %f\n", i, scene[i]->name(), scene[i]->area());
    }
}

__global__ void destroy(Shape **scene, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        delete scene[i];
}
