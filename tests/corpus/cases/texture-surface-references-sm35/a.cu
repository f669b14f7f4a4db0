// texture and surface references (legacy API, bindless slots) next to texture and surface objects
texture<float, 1, cudaReadModeElementType> texA;
surface<void, 2> surfA;
extern __device__ float fetch_both(cudaTextureObject_t t, int i);
__global__ void k_tex(float *out, int n) { out[threadIdx.x] = tex1Dfetch(texA, threadIdx.x) * n + fetch_both(0, threadIdx.x); }
__global__ void k_surf(int a, int b, int c) { surf2Dwrite(a + b, surfA, c * 4, 0); }
__global__ void k_objects(cudaTextureObject_t t, cudaSurfaceObject_t s, float *out) {
  float v = tex1Dfetch<float>(t, threadIdx.x);
  surf2Dwrite(v, s, threadIdx.x * 4, 0);
  out[threadIdx.x] = v;
}
__global__ void k_plain(float *out, double a, double b, double c, double d, double e, double f) {
  out[threadIdx.x] = a + b + c + d + e + f;
}
