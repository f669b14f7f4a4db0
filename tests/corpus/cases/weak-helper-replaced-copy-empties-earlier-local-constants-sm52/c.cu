__global__ void kc(double* q) { q[0] = q[1] / q[2]; }
