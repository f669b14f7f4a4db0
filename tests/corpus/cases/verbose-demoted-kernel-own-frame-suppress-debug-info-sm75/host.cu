__global__ void kl(long long *o);
int main() { kl<<<1, 1>>>(0); return 0; }
