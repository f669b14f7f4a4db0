// thirteen texture references declared in one order and first read in another, over two kernels
texture<float, 1, cudaReadModeElementType> t00;
texture<float, 1, cudaReadModeElementType> t01;
texture<float, 1, cudaReadModeElementType> t02;
texture<float, 1, cudaReadModeElementType> t03;
texture<float, 1, cudaReadModeElementType> t04;
texture<float, 1, cudaReadModeElementType> t05;
texture<float, 1, cudaReadModeElementType> t06;
texture<float, 1, cudaReadModeElementType> t07;
texture<float, 1, cudaReadModeElementType> t08;
texture<float, 1, cudaReadModeElementType> t09;
texture<float, 1, cudaReadModeElementType> t10;
texture<float, 1, cudaReadModeElementType> t11;
texture<float, 1, cudaReadModeElementType> t12;
__global__ void k_first(float *out) {
  int i = threadIdx.x;
  float r = 0;
  r += tex1Dfetch(t08, i + 0);
  r += tex1Dfetch(t07, i + 1);
  r += tex1Dfetch(t00, i + 2);
  r += tex1Dfetch(t11, i + 3);
  r += tex1Dfetch(t05, i + 4);
  r += tex1Dfetch(t01, i + 5);
  r += tex1Dfetch(t06, i + 6);
  out[i] = r;
}
__global__ void k_second(float *out) {
  int i = threadIdx.x;
  float r = 0;
  r += tex1Dfetch(t01, i + 0);
  r += tex1Dfetch(t06, i + 1);
  r += tex1Dfetch(t09, i + 2);
  r += tex1Dfetch(t03, i + 3);
  r += tex1Dfetch(t02, i + 4);
  r += tex1Dfetch(t10, i + 5);
  r += tex1Dfetch(t12, i + 6);
  r += tex1Dfetch(t04, i + 7);
  out[i] = r;
}
