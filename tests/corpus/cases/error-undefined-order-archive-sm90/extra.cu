extern __device__ unsigned stream_pos;
extern __device__ unsigned stream_end;
__device__ unsigned checksum(unsigned);
__device__ unsigned rewind_to(unsigned);
__global__ void seek(unsigned *out) { out[0] = rewind_to(stream_end) + checksum(stream_pos) + stream_pos; }
