// file a: a kernel with its own jump table calling the functions of b.cu, and a second kernel calling only some
__device__ __noinline__ int same_a(int x) {
 switch (x) {
  case 0: return 195;
  case 3: return 8114;
  case 6: return 16033;
  case 9: return 23952;
  case 12: return 31871;
  case 15: return 39790;
  case 18: return 47709;
  case 21: return 55628;
  case 24: return 63547;
  case 27: return 71466;
  case 30: return 79385;
  case 33: return 87304;
  case 36: return 95223;
  case 39: return 3139;
  case 42: return 11058;
  case 45: return 18977;
  case 48: return 26896;
  case 51: return 34815;
  case 54: return 42734;
  case 57: return 50653;
  case 60: return 58572;
  case 63: return 66491;
  case 66: return 74410;
  case 69: return 82329;
  default: return -1;
 }
}
extern __device__ int same_b1(int); extern __device__ int same_b2(int); extern __device__ int other_b(int);
__global__ void k_all(int *o) { int x = o[threadIdx.x]; int r;
 switch (x & 63) {
  case 0: r = 5; break;
  case 2: r = 6; break;
  case 4: r = 9; break;
  case 6: r = 14; break;
  case 8: r = 21; break;
  case 10: r = 30; break;
  case 12: r = 41; break;
  case 14: r = 54; break;
  case 16: r = 69; break;
  case 18: r = 86; break;
  case 20: r = 105; break;
  case 22: r = 126; break;
  case 24: r = 149; break;
  case 26: r = 174; break;
  case 28: r = 201; break;
  case 30: r = 230; break;
  case 32: r = 261; break;
  case 34: r = 294; break;
  case 36: r = 329; break;
  case 38: r = 366; break;
  case 40: r = 405; break;
  case 42: r = 446; break;
  case 44: r = 489; break;
  case 46: r = 534; break;
  default: r = 0;
 }
 o[threadIdx.x] = r + same_a(x) + same_b1(x + 1) + same_b2(x + 2) + other_b(x + 3); }
__global__ void k_some(int *o) { int x = o[threadIdx.x]; o[threadIdx.x] = same_b2(x) + other_b(x); }
