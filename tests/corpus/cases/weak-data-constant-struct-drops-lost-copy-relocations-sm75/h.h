struct S { const float* p; int n; };
#ifdef AZERO
inline ASP float wa[4];
#else
inline ASP float wa[4] = {1, 2.5f, 3, 4};
#endif
