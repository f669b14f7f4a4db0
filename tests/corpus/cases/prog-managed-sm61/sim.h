#pragma once
#include <cstdio>
#define NCELLS 1024
struct Stats { int steps; float total; float peak; };
extern __managed__ float grid_a[NCELLS];
extern __managed__ Stats stats;
extern __managed__ int generation;
__device__ float neighbour_avg(const float *g, int i);
__global__ void diffuse(float alpha);
__global__ void collect();
