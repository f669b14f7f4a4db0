// a kernel no host code launches
__global__ void plain(int *p) { p[2] = 3; }
