#include <math.h>
#include <stdlib.h>
/* path --reach 9 in `f`: only the then-side of `exp(x) < 0.0` can reach
   the line, so the loop below is never explored (before: the loop's 2^k
   paths were, as if code after f returned could reach line 9). */
int f(double x, double y) {
  int s = 0;
  if (exp(x) < 0.0) {
    s = 1;
  }
  for (int i = 0; i < 30; i++) {
    if (y > i) s += 2; else s -= 1;
    y = y * 1.5 - 3.0;
  }
  return s;
}

/* path --reach 23 in `g`: the handler registered with atexit runs after g
   returns, so line 23 is reachable through it. */
static double last;
static void report(void) {
  if (last > 100.0)
    last = 0.0;
}

int g(double x) {
  last = x;
  atexit(report);
  return 0;
}
