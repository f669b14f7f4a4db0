// Compiled for sm_52 only (SASS, no PTX): nothing for an sm_61 link.
__device__ float legacy_gain;
__global__ void legacy(float *p) { p[threadIdx.x] *= legacy_gain; }
