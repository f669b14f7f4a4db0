__global__ void plain_copy(float *d, const float *s) { d[threadIdx.x] = s[threadIdx.x]; }
void run_copy(float *d, const float *s) { plain_copy<<<1, 32>>>(d, s); }
