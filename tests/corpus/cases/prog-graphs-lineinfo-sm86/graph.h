#pragma once
#include <cstdio>
struct Particle { float x, y, vx, vy; };
__device__ float2 field_at(float x, float y);
__device__ float clampf(float v, float lo, float hi);
__global__ void integrate(Particle *p, int n, float dt);
__global__ void bounce(Particle *p, int n);
__global__ void energy(const Particle *p, int n, float *e);
int build_graph(cudaGraphExec_t *exec, cudaStream_t s, Particle *p, int n, float *e);
