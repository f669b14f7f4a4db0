#include "ops.h"
#include <thrust/transform.h>
#include <thrust/iterator/counting_iterator.h>
#include <cstdio>
__device__ float soften(float x) { return x / (1.0f + fabsf(x)); }
struct ramp {
  float step;
  __device__ float operator()(int i) const { return soften(step * i); }
};
void fill_ramp(thrust::device_vector<float>& v, float step) {
  thrust::transform(thrust::counting_iterator<int>(0), thrust::counting_iterator<int>((int)v.size()), v.begin(), ramp{step});
}
int main() {
  thrust::device_vector<float> v(1000);
  fill_ramp(v, 0.01f);
  printf("%f\n", sum_of_softened(v));
  return 0;
}
