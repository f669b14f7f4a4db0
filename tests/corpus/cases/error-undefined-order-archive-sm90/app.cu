extern __device__ unsigned stream_pos;
__device__ unsigned decode_word(unsigned);
__device__ unsigned checksum(unsigned);
__global__ void decode(unsigned *out, const unsigned *in) {
  out[threadIdx.x] = decode_word(in[threadIdx.x]) + checksum(stream_pos);
}
