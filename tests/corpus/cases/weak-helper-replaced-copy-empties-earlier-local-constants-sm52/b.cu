__global__ void kb(double* q) { q[0] = q[1] / q[2]; }
