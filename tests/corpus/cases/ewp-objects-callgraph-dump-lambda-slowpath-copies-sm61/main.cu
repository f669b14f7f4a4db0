void run_a(float *p, int n);
void run_b(int *q, int n);
int main() {
  float *p; int *q;
  cudaMalloc(&p, 1024); cudaMalloc(&q, 1024);
  run_a(p, 256);
  run_b(q, 256);
  return cudaDeviceSynchronize();
}
