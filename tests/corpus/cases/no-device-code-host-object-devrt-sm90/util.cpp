// more plain host code
int host_mul(int a, int b) { return a * b; }
