__global__ void wholeKernel(int *p) { p[0] = 7; }
