// file b: device functions whose switch statements compile to jump tables of the same shape (identical bank-2 data) and one of another shape
__device__ __noinline__ int same_b1(int x) {
 switch (x) {
  case 0: return 273;
  case 3: return 8192;
  case 6: return 16111;
  case 9: return 24030;
  case 12: return 31949;
  case 15: return 39868;
  case 18: return 47787;
  case 21: return 55706;
  case 24: return 63625;
  case 27: return 71544;
  case 30: return 79463;
  case 33: return 87382;
  case 36: return 95301;
  case 39: return 3217;
  case 42: return 11136;
  case 45: return 19055;
  case 48: return 26974;
  case 51: return 34893;
  case 54: return 42812;
  case 57: return 50731;
  case 60: return 58650;
  case 63: return 66569;
  case 66: return 74488;
  case 69: return 82407;
  default: return -1;
 }
}
__device__ __noinline__ int same_b2(int x) {
 switch (x) {
  case 0: return 281;
  case 3: return 8200;
  case 6: return 16119;
  case 9: return 24038;
  case 12: return 31957;
  case 15: return 39876;
  case 18: return 47795;
  case 21: return 55714;
  case 24: return 63633;
  case 27: return 71552;
  case 30: return 79471;
  case 33: return 87390;
  case 36: return 95309;
  case 39: return 3225;
  case 42: return 11144;
  case 45: return 19063;
  case 48: return 26982;
  case 51: return 34901;
  case 54: return 42820;
  case 57: return 50739;
  case 60: return 58658;
  case 63: return 66577;
  case 66: return 74496;
  case 69: return 82415;
  default: return -1;
 }
}
__device__ __noinline__ int other_b(int x) {
 switch (x) {
  case 0: return 261;
  case 5: return 8180;
  case 10: return 16099;
  case 15: return 24018;
  case 20: return 31937;
  case 25: return 39856;
  case 30: return 47775;
  case 35: return 55694;
  case 40: return 63613;
  case 45: return 71532;
  case 50: return 79451;
  case 55: return 87370;
  case 60: return 95289;
  case 65: return 3205;
  case 70: return 11124;
  case 75: return 19043;
  case 80: return 26962;
  default: return -1;
 }
}
