// launches kL
__global__ void kL(int *o);
int main() { kL<<<1, 1>>>(0); return 0; }
