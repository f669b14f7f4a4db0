// file b: functions with jump tables, and a kernel (kD) with a jump table of its own that also calls one
extern __device__ int fa1(int);
__device__ __noinline__ int fb1(int x) { switch (x) {
 case 0: return 23794;
 case 3: return 37981;
 case 6: return 52168;
 case 9: return 66355;
 case 12: return 80542;
 case 15: return 94729;
 case 18: return 8916;
 case 21: return 23103;
 case 24: return 37290;
 case 27: return 51477;
 case 30: return 65664;
 case 33: return 79851;
 case 36: return 94038;
 case 39: return 8225;
 case 42: return 22412;
 case 45: return 36599;
 case 48: return 50786;
 case 51: return 64973;
 case 54: return 79160;
 case 57: return 93347;
 case 60: return 7534;
 case 63: return 21721;
 case 66: return 35908;
 case 69: return 50095;
 default: return -1; } }
__device__ __noinline__ int fb2(int x) { switch (x) {
 case 0: return 23798;
 case 3: return 37985;
 case 6: return 52172;
 case 9: return 66359;
 case 12: return 80546;
 case 15: return 94733;
 case 18: return 8920;
 case 21: return 23107;
 case 24: return 37294;
 case 27: return 51481;
 case 30: return 65668;
 case 33: return 79855;
 case 36: return 94042;
 case 39: return 8229;
 case 42: return 22416;
 case 45: return 36603;
 case 48: return 50790;
 case 51: return 64977;
 case 54: return 79164;
 case 57: return 93351;
 case 60: return 7538;
 case 63: return 21725;
 case 66: return 35912;
 case 69: return 50099;
 default: return -1; } }
__global__ void kC(int *o) { o[0] = fb2(o[1]) + fa1(o[2]); }
__global__ void kD(int *o) { int x = o[1]; int r; switch (x) {
 case 0: r = 17; break;
 case 3: r = 18470; break;
 case 6: r = 36923; break;
 case 9: r = 55376; break;
 case 12: r = 73829; break;
 case 15: r = 92282; break;
 case 18: r = 10735; break;
 case 21: r = 29188; break;
 case 24: r = 47641; break;
 case 27: r = 66094; break;
 case 30: r = 84547; break;
 case 33: r = 3000; break;
 case 36: r = 21453; break;
 case 39: r = 39906; break;
 case 42: r = 58359; break;
 case 45: r = 76812; break;
 case 48: r = 95265; break;
 case 51: r = 13718; break;
 case 54: r = 32171; break;
 case 57: r = 50624; break;
 case 60: r = 69077; break;
 case 63: r = 87530; break;
 case 66: r = 5983; break;
 case 69: r = 24436; break;
 default: r = -1; } o[0] = r + fb1(o[2]); }
