// Kernels templated on lambdas (nvcc --extended-lambda): their names carry
// closure types, which nvlink's call graph spells [lambda(...) (instance N)].
template <typename F> __global__ void for_each_n(int n, F f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) f(i);
}
template <typename T, typename F> __global__ void transform_k(const T *in, T *out, int n, F f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = f(in[i]);
}
void run_a(float *p, int n) {
  for_each_n<<<(n + 127) / 128, 128>>>(n, [=] __device__(int i) { p[i] = i * 0.5f; });
  for_each_n<<<(n + 127) / 128, 128>>>(n, [=] __device__(int i) { p[i] += 1.0f; });
  transform_k<<<(n + 127) / 128, 128>>>(p, p, n, [] __device__(float x) { return sqrtf(x) + 2.0f; });
}
void run_b(int *q, int n) {
  int k = 3;
  for_each_n<<<(n + 127) / 128, 128>>>(n, [=] __device__(int i) { q[i] = i * k; });
  transform_k<<<(n + 127) / 128, 128>>>(q, q, n, [k] __device__(int x) { return x / k; });
}
