#include "cases.h"

// Two device functions with jump tables of the same size (60 bytes in
// bank 2), other entries.
__device__ __noinline__ int f(int op, int x)
{
    switch (op) { CASES(x) }
    return x;
}

__device__ __noinline__ int g(int op, int x)
{
    switch (op) {
    case 0: x = x * 13; break; case 1: x = x + 5; break; case 2: x = x ^ 77; break; case 3: x = x - 9; break;
    case 4: x = x * x * x; break; case 5: x = x >> 5; break; case 6: x = x | 3; break; case 7: x = x & 0xf0; break;
    case 8: x = -x; break; case 9: x = x / 7; break; case 10: x = x % 11; break; case 11: x = x + 1000; break;
    default: x = 42; break;
    }
    return x;
}
