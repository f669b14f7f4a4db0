#include "animals.h"
int main() {
  Animal **zoo; int *out;
  cudaMalloc(&zoo, 64 * sizeof(Animal *)); cudaMalloc(&out, 256);
  adopt<<<1, 64>>>(zoo, 64); listen<<<1, 64>>>(zoo, out, 64); release<<<1, 64>>>(zoo, 64);
  return cudaDeviceSynchronize();
}
