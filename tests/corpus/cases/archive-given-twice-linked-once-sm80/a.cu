// liba.a: ping calls pong in libb.a
__device__ int pong(int n);
__device__ int ping(int n) { return n <= 0 ? 0 : 1 + pong(n - 1); }
