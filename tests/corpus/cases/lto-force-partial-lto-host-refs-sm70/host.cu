// host code launching one kernel of the other file
__global__ void launched(int *p);
void run(int *p) { launched<<<1, 32>>>(p); }
