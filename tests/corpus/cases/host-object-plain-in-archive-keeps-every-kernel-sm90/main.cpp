// plain host code, compiled by the host compiler alone: no device code, no .nvHR* lists
int host_add(int a, int b) { return a + b; }
