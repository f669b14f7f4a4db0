void launchFromHost(float *p);
int main() { launchFromHost(nullptr); return 0; }
