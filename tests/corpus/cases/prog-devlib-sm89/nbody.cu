// The application: a torque/force kernel using the library.
#include "vecmath.h"

__global__ void torques(const V3 *pos, const V3 *force, V3 *tau, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        tau[i] = v3_add(v3_cross(pos[i], force[i]), v3_scale(pos[i], 0.0f));
}
