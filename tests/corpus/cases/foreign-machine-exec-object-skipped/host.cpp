// Plain host code (no device code, no kernel-reference lists).
int answer(int x) { return 2 * x + 42; }
