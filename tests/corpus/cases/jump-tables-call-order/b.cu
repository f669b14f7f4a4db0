// file b: three functions with jump tables, called by k1 in the reverse of their definition order and by k2 in another
__device__ __noinline__ int f1(int x) {
 switch (x) {
  case 0: return 7919;
  case 3: return 12648;
  case 6: return 17377;
  case 9: return 22106;
  case 12: return 26835;
  case 15: return 31564;
  case 18: return 36293;
  case 21: return 41022;
  case 24: return 45751;
  case 27: return 50480;
  case 30: return 55209;
  case 33: return 59938;
  case 36: return 64667;
  case 39: return 69396;
  case 42: return 74125;
  case 45: return 78854;
  case 48: return 83583;
  case 51: return 88312;
  case 54: return 93041;
  case 57: return 97770;
  case 60: return 2499;
  case 63: return 7228;
  case 66: return 11957;
  case 69: return 16686;
  default: return -1;
 }
}
__device__ __noinline__ int f2(int x) {
 switch (x) {
  case 0: return 15838;
  case 3: return 20567;
  case 6: return 25296;
  case 9: return 30025;
  case 12: return 34754;
  case 15: return 39483;
  case 18: return 44212;
  case 21: return 48941;
  case 24: return 53670;
  case 27: return 58399;
  case 30: return 63128;
  case 33: return 67857;
  case 36: return 72586;
  case 39: return 77315;
  case 42: return 82044;
  case 45: return 86773;
  case 48: return 91502;
  case 51: return 96231;
  case 54: return 960;
  case 57: return 5689;
  case 60: return 10418;
  case 63: return 15147;
  case 66: return 19876;
  case 69: return 24605;
  default: return -1;
 }
}
__device__ __noinline__ int f3(int x) {
 switch (x) {
  case 0: return 23757;
  case 3: return 28486;
  case 6: return 33215;
  case 9: return 37944;
  case 12: return 42673;
  case 15: return 47402;
  case 18: return 52131;
  case 21: return 56860;
  case 24: return 61589;
  case 27: return 66318;
  case 30: return 71047;
  case 33: return 75776;
  case 36: return 80505;
  case 39: return 85234;
  case 42: return 89963;
  case 45: return 94692;
  case 48: return 99421;
  case 51: return 4150;
  case 54: return 8879;
  case 57: return 13608;
  case 60: return 18337;
  case 63: return 23066;
  case 66: return 27795;
  case 69: return 32524;
  default: return -1;
 }
}
__global__ void k1(int *o) { int x = o[threadIdx.x]; o[threadIdx.x] = f3(x) + f2(x) + f1(x); }
__global__ void k2(int *o) { int x = o[threadIdx.x]; o[threadIdx.x] = f1(x) + f3(x); }
