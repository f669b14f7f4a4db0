#include "ops.h"
#include <thrust/transform_reduce.h>
#include <thrust/functional.h>
struct softened {
  __device__ float operator()(float x) const { return soften(x); }
};
float sum_of_softened(const thrust::device_vector<float>& v) {
  return thrust::transform_reduce(v.begin(), v.end(), softened(), 0.0f, thrust::plus<float>());
}
