// The managed state shared by host and device, and a stencil helper.
#include "sim.h"

__managed__ float grid_a[NCELLS];
__managed__ Stats stats = {0, 0.0f, 0.0f};
__managed__ int generation = 1;

__device__ float neighbour_avg(const float *g, int i)
{
    float l = g[(i + NCELLS - 1) % NCELLS], r = g[(i + 1) % NCELLS];
    return 0.5f * (l + r);
}
