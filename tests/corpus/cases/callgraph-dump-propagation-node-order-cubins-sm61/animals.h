#pragma once
// A small class hierarchy with virtual destructors, defined in a header:
// each class's deleting destructor calls free and needs the same number
// of registers.
struct Animal {
  int legs;
  __device__ Animal(int l) : legs(l) {}
  __device__ virtual ~Animal() {}
  __device__ virtual int sound() const { return 0; }
};
struct Dog : Animal {
  __device__ Dog() : Animal(4) {}
  __device__ int sound() const override { return 1; }
};
struct Bird : Animal {
  float wing;
  __device__ Bird(float w) : Animal(2), wing(w) {}
  __device__ int sound() const override { return 2 + (int)wing; }
};
__global__ void adopt(Animal **zoo, int n);
__global__ void release(Animal **zoo, int n);
__global__ void listen(Animal **zoo, int *out, int n);
