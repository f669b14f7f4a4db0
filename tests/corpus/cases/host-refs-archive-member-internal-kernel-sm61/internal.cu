// host code launching only a static kernel: only the internal-kernel list (.nvHRKI) names something
static __global__ void internal(int *p) { p[0] = 1; }
__global__ void external_unlaunched(int *p) { p[1] = 2; }
void launch(int *p) { internal<<<1, 1>>>(p); }
