// relax, given by itself: mid.o's relax.o (after the dlink output) is never read
__device__ float relax(float a, float b) { return a - b; }
