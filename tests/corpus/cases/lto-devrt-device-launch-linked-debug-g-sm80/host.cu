__global__ void parent(float *p);
int main() { parent<<<1, 1>>>(0); return 0; }
