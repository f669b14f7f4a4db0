__global__ void ka(double* q) { q[0] = q[1] / q[2]; }
