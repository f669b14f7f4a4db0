// Library member 2: geometry on top of member 1, and a kernel of its own.
#include "vecmath.h"

__device__ V3 v3_cross(V3 a, V3 b)
{
    return V3{a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

__device__ float v3_norm(V3 a) { return sqrtf(v3_dot(a, a)); }

__global__ void normalize_all(V3 *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] = v3_scale(v[i], 1.0f / v3_norm(v[i]));
}
