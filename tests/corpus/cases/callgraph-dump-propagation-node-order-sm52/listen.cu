#include "animals.h"
__global__ void listen(Animal **zoo, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = zoo[i]->sound() * zoo[i]->legs;
}
