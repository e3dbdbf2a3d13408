#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <klee/klee.h>
extern void reach_error(void);

static double budget;

static void report(void) {
  /* Runs at exit: the bug is only reachable through the handler. */
  if (budget < 0.0)
    reach_error();
}

int main(void) {
  setlocale(LC_ALL, "");
  atexit(report);
  const char *mode = getenv("FPSYM_MODE"); /* set with --env */
  const char *home = getenv("HOME");       /* not set: NULL */
  if (home)
    abort();
  srand(7);
  int r1 = rand(), r2 = rand();
  time_t now = time(NULL);
  clock_t c = clock();
  errno = 0;
  klee_make_symbolic(&budget, sizeof budget, "budget");
  klee_assume(budget >= 0.0);
  fprintf(stderr, "starting at %ld\n", (long)now);
  fflush(stdout);
  /* glibc's sequence for seed 7 */
  if (mode && mode[0] == 'x' && r1 == 1045618677 && r2 == 1863967299 && now > 1000000 && c < 5)
    budget -= 1.0; /* negative when budget < 1 */
  if (errno != 0)
    abort();
  return 0;
}
// fpsym-flags: --env FPSYM_MODE=x
// expect-finding: reach-error 15
