#include <stdio.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
#include <sys/resource.h>
/* wall, CPU (user + system), user, system (ms), peak RSS (KiB), minor faults, exit status of one run */
int main(int argc, char **argv) {
  struct timespec a, b; clock_gettime(CLOCK_MONOTONIC, &a);
  pid_t p = fork();
  if (p == 0) { execv(argv[1], argv + 1); _exit(127); }
  int st; struct rusage ru; wait4(p, &st, 0, &ru);
  clock_gettime(CLOCK_MONOTONIC, &b);
  double u = ru.ru_utime.tv_sec * 1e3 + ru.ru_utime.tv_usec / 1e3, s = ru.ru_stime.tv_sec * 1e3 + ru.ru_stime.tv_usec / 1e3;
  printf("wall %.1f cpu %.1f user %.1f sys %.1f rss %ld flt %ld st %d\n", (b.tv_sec - a.tv_sec) * 1e3 + (b.tv_nsec - a.tv_nsec) / 1e6,
         u + s, u, s, ru.ru_maxrss, ru.ru_minflt, st);
  return 0;
}
