#pragma once
#include <cstdio>
struct Shape {
    float x, y;
    __device__ Shape(float x, float y) : x(x), y(y) {}
    __device__ virtual ~Shape() {}
    __device__ virtual float area() const = 0;
    __device__ virtual const char *name() const { return "shape"; }
};
struct Circle : Shape {
    float r;
    __device__ Circle(float x, float y, float r);
    __device__ float area() const override;
    __device__ const char *name() const override;
};
struct Rect : Shape {
    float w, h;
    __device__ Rect(float x, float y, float w, float h);
    __device__ float area() const override;
};
__device__ Shape *make_shape(int kind, int i);
__global__ void build(Shape **scene, int n);
__global__ void total_area(Shape *const *scene, int n, float *out);
__global__ void destroy(Shape **scene, int n);
