// a texture and a surface declared and never read
texture<float, 1, cudaReadModeElementType> t_unread;
surface<void, 1> s_unread;
__device__ float unused_b(float *p) { return p[0]; }
