// A texture reference and __constant__ data; the host code launches only
// one of the two kernels, so nvlink prunes the other.
__constant__ float gains[4] = {0.5f, 1.0f, 1.5f, 2.0f};
texture<float, 1, cudaReadModeElementType> samples;
__global__ void filtered(float *out) {
  out[threadIdx.x] = tex1Dfetch(samples, threadIdx.x) * gains[threadIdx.x & 3];
}
__global__ void unlaunched(float *out) { out[threadIdx.x] = gains[1]; }
void run(float *out) { filtered<<<1, 64>>>(out); }
