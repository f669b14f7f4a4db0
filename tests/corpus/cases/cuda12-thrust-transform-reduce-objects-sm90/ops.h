#pragma once
#include <thrust/device_vector.h>
__device__ float soften(float x);
float sum_of_softened(const thrust::device_vector<float>& v);
void fill_ramp(thrust::device_vector<float>& v, float step);
