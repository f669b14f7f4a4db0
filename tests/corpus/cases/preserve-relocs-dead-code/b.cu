extern __device__ int live_helper(int x);
extern __device__ int dead_caller(int x);

__device__ __noinline__ int dead_in_b(int x)            // calls a live function, but is dead itself
{
    return live_helper(x) + dead_caller(x);
}

__device__ __noinline__ int dead_switch(int x)          // dead function with a jump table
{
    switch (x) {
    case 0: return 11; case 1: return 22; case 2: return 33; case 3: return 44;
    case 4: return 55; case 5: return 66; case 6: return 77; case 7: return 88;
    default: return -1;
    }
}
