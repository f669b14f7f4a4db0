static __constant__ float kTab[4] = {1.f, 2.f, 3.f, 4.f};
