// file a: two functions with switch jump tables (bank 2), and a kernel calling them and b.cu's out of definition order
__device__ __noinline__ int g1(int x) {
 switch (x) {
  case 0: return 31676;
  case 3: return 36405;
  case 6: return 41134;
  case 9: return 45863;
  case 12: return 50592;
  case 15: return 55321;
  case 18: return 60050;
  case 21: return 64779;
  case 24: return 69508;
  case 27: return 74237;
  case 30: return 78966;
  case 33: return 83695;
  case 36: return 88424;
  case 39: return 93153;
  case 42: return 97882;
  case 45: return 2611;
  case 48: return 7340;
  case 51: return 12069;
  case 54: return 16798;
  case 57: return 21527;
  case 60: return 26256;
  case 63: return 30985;
  case 66: return 35714;
  case 69: return 40443;
  default: return -1;
 }
}
__device__ __noinline__ int g2(int x) {
 switch (x) {
  case 0: return 39595;
  case 3: return 44324;
  case 6: return 49053;
  case 9: return 53782;
  case 12: return 58511;
  case 15: return 63240;
  case 18: return 67969;
  case 21: return 72698;
  case 24: return 77427;
  case 27: return 82156;
  case 30: return 86885;
  case 33: return 91614;
  case 36: return 96343;
  case 39: return 1072;
  case 42: return 5801;
  case 45: return 10530;
  case 48: return 15259;
  case 51: return 19988;
  case 54: return 24717;
  case 57: return 29446;
  case 60: return 34175;
  case 63: return 38904;
  case 66: return 43633;
  case 69: return 48362;
  default: return -1;
 }
}
extern __device__ int f1(int); extern __device__ int f2(int); // defined in b.cu
__global__ void k3(int *o) { int x = o[threadIdx.x]; o[threadIdx.x] = g2(x) + f2(x) + g1(x) + f1(x); }
