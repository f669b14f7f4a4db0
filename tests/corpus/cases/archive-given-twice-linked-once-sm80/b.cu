// libb.a: pong calls ping in liba.a
__device__ int ping(int n);
__device__ int pong(int n) { return n <= 0 ? 1 : 2 + ping(n - 1); }
