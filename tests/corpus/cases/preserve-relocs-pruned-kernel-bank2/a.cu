// file a: functions with switch jump tables (bank 2) and kernels calling them and b.cu's
extern __device__ int fb1(int); extern __device__ int fb2(int);
__device__ __noinline__ int fa1(int x) { switch (x) {
 case 0: return 23768;
 case 3: return 37955;
 case 6: return 52142;
 case 9: return 66329;
 case 12: return 80516;
 case 15: return 94703;
 case 18: return 8890;
 case 21: return 23077;
 case 24: return 37264;
 case 27: return 51451;
 case 30: return 65638;
 case 33: return 79825;
 case 36: return 94012;
 case 39: return 8199;
 case 42: return 22386;
 case 45: return 36573;
 case 48: return 50760;
 case 51: return 64947;
 case 54: return 79134;
 case 57: return 93321;
 case 60: return 7508;
 case 63: return 21695;
 case 66: return 35882;
 case 69: return 50069;
 default: return -1; } }
__device__ __noinline__ int fa2(int x) { switch (x) {
 case 0: return 23780;
 case 3: return 37967;
 case 6: return 52154;
 case 9: return 66341;
 case 12: return 80528;
 case 15: return 94715;
 case 18: return 8902;
 case 21: return 23089;
 case 24: return 37276;
 case 27: return 51463;
 case 30: return 65650;
 case 33: return 79837;
 case 36: return 94024;
 case 39: return 8211;
 case 42: return 22398;
 case 45: return 36585;
 case 48: return 50772;
 case 51: return 64959;
 case 54: return 79146;
 case 57: return 93333;
 case 60: return 7520;
 case 63: return 21707;
 case 66: return 35894;
 case 69: return 50081;
 default: return -1; } }
__global__ void kA(int *o) { o[0] = fa1(o[1]); }
__global__ void kB(int *o) { o[0] = fa2(o[1]) + fb1(o[2]); }
