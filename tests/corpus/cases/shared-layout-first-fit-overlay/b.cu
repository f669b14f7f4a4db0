#define ARRAY_FUNC(name, n)                      \
    __device__ __noinline__ int name(int i)      \
    {                                            \
        __shared__ char buf[n];                  \
        buf[i % n] = (char)i;                    \
        __syncthreads();                         \
        return buf[(i + 1) % n];                 \
    }

ARRAY_FUNC(fa, 64)
ARRAY_FUNC(fd, 48)
ARRAY_FUNC(ff, 40)
ARRAY_FUNC(fg, 32)
ARRAY_FUNC(fh, 16)
ARRAY_FUNC(fb, 8)
