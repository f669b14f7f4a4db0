extern __device__ unsigned dictionary_size;
__device__ unsigned lookup_symbol(unsigned);
__device__ unsigned decode_word(unsigned w) { return lookup_symbol(w) % dictionary_size; }
