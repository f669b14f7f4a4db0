#include "animals.h"
__global__ void adopt(Animal **zoo, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) zoo[i] = (i & 1) ? (Animal *)new Dog() : (Animal *)new Bird(0.5f * i);
}
__global__ void release(Animal **zoo, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) delete zoo[i];
}
