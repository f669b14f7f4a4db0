#include "blk.h"
void run_prefix(const int* in, int* out, int* wmax, int n) {
  block_prefix<int, 128><<<(n + 127) / 128, 128>>>(in, out, wmax, n);
  // the same instantiation as sums.cu's, so both files hold the weak kernel
  block_sums<float, 128><<<1, 128>>>((const float*)in, (float*)out, 128);
}
void run_sort(unsigned* keys, int tiles) { tile_sort<128, 4><<<tiles, 128>>>(keys); }
