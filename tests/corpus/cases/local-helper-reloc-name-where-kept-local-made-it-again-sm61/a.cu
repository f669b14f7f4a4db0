__global__ void ka(float* p) { p[0] = p[1] / p[2]; }
