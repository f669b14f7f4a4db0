#include "h.h"
template __global__ void tk<float>(float*);
template __global__ void tk<int>(int*);
