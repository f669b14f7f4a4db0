// ten texture and surface references: names whose alphabetical, declaration, creation and
// use orders all differ; a kernel that reads none; a device function in b.cu that two kernels call
texture<float, 1, cudaReadModeElementType> zeta;
surface<void, 1> s_mid;
texture<float, 1, cudaReadModeElementType> alpha_long_texture_name;
texture<int, 1, cudaReadModeElementType> m;
surface<void, 2> aa;
texture<float, 2, cudaReadModeElementType> tex9;
texture<float, 1, cudaReadModeElementType> declaredNeverRead;
extern __device__ float shared_reader(int i);
__global__ void k_many(float *out) {
  int i = threadIdx.x;
  float r = tex1Dfetch(m, i) + tex2D(tex9, i * 0.5f, 0.25f);
  r += tex1Dfetch(zeta, i) + tex1Dfetch(alpha_long_texture_name, i + 2);
  surf1Dwrite(r, s_mid, i * 4);
  surf2Dwrite(r, aa, i * 4, 1);
  out[i] = r + shared_reader(i);
}
__global__ void k_via_call(float *out) { out[threadIdx.x] = shared_reader(threadIdx.x); }
__global__ void k_none(float *out, float v) { out[threadIdx.x] = v; }
