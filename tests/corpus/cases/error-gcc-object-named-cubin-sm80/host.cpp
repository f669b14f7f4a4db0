int host_add(int a, int b) { return a + b; }
