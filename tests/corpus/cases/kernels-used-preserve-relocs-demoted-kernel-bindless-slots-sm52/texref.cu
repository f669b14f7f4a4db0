// hunt29 sweep's Kepler program: texture and surface references, a bindless-reading device function
#include "kep.h"
texture<float, cudaTextureType1D, cudaReadModeElementType> g_tex1;
texture<float4, cudaTextureType2D, cudaReadModeElementType> g_tex2;
surface<void, cudaSurfaceType2D> g_surf;
__device__ __noinline__ float tex_sample(int i) { return tex1Dfetch(g_tex1, i) * c_coef[i & 63]; }
__global__ void k_texref(float *out, int n, float u, float v)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		float4 t = tex2D(g_tex2, u + i, v);
		out[i] = tex_sample(i) + t.x + t.w + ldg_dot(out, out, c_n);
	}
}
__global__ void k_surf(int w, int h)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
	if (x < w && y < h) {
		float val = surf2Dread<float>(g_surf, x * 4, y);
		surf2Dwrite(val * c_coef[x & 63] + tex_sample(x), g_surf, x * 4, y);
	}
}
