// a member of libt.a (thin)
__constant__ float factor[4] = {1.5f, 2.5f, 3.5f, 4.5f};
__device__ float scale(float x) { return x * factor[(int)x & 3]; }
