#pragma once
__device__ float wave(float x);
__device__ double dwave(double x);
__global__ void k_trig(const float *in, float *out, int n);
__global__ void k_special(const double *in, double *out, int n);
