// The same layout of jump table as a.cu's sw (twelve cases), other code:
// other entries. The junk step detaches the table from sw (sh_info 0).
static __device__ __noinline__ int sw(int op, int x)
{
    switch (op) {
    case 0: x = x * 13; break; case 1: x = x + 5; break; case 2: x = x ^ 77; break; case 3: x = x - 9; break;
    case 4: x = x * x * x; break; case 5: x = x >> 5; break; case 6: x = x | 3; break; case 7: x = x & 0xf0; break;
    case 8: x = -x; break; case 9: x = x / 7; break; case 10: x = x % 11; break; case 11: x = x + 1000; break;
    default: x = 42; break;
    }
    return x;
}

__global__ void k_b(const int *ops, int *vals) { vals[threadIdx.x] = sw(ops[threadIdx.x], vals[1]); }
