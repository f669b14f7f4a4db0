// The host code launches k1 only: libnvvm is told so, and names the others.
__global__ void k1(float *p);

void launch(float *p) { k1<<<1, 32>>>(p); }
