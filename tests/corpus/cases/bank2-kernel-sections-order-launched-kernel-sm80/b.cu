// file b: fj has a switch jump table (bank-2 constants); kernel kB calls it
__device__ __noinline__ int fj(int x) { switch (x) {
 case 0: return 23757;
 case 3: return 37944;
 case 6: return 52131;
 case 9: return 66318;
 case 12: return 80505;
 case 15: return 94692;
 case 18: return 8876;
 case 21: return 23063;
 case 24: return 37250;
 case 27: return 51437;
 case 30: return 65624;
 case 33: return 79811;
 case 36: return 93998;
 case 39: return 8182;
 case 42: return 22369;
 case 45: return 36556;
 case 48: return 50743;
 case 51: return 64930;
 case 54: return 79117;
 case 57: return 93304;
 case 60: return 7488;
 case 63: return 21675;
 case 66: return 35862;
 case 69: return 50049;
 default: return -1; } }
__global__ void kB(int *o) { o[0] = fj(o[1]) + 1; }
