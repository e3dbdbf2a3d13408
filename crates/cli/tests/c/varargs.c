#include <klee/klee.h>
#include <stdarg.h>
extern void reach_error(void);

/* Integers, doubles and a long double through one va_list, more than fit
   in registers (six integer, eight SSE), and a va_copy. */
static double mix(int n, ...) {
  va_list ap, again;
  va_start(ap, n);
  va_copy(again, ap);
  double s = 0;
  for (int i = 0; i < n; i++) {
    int k = va_arg(ap, int);
    double d = va_arg(ap, double);
    s += k * d;
  }
  long double tail = va_arg(ap, long double);
  int first = va_arg(again, int);
  va_end(again);
  va_end(ap);
  return s + (double)tail + first;
}

int main(void) {
  double x;
  klee_make_symbolic(&x, sizeof x, "x");
  double r = mix(9, 1, 1.0, 2, 2.0, 3, 3.0, 4, 4.0, 5, 5.0, 6, 6.0, 7, 7.0, 8, 8.0, 9, x, 0.5L);
  /* 1+4+9+...+64 = 204, + 9x + 0.5 + 1 */
  if (r == 250.5)
    reach_error(); /* x = 5 */
  return 0;
}
// expect-finding: reach-error 30
// expect-paths: 2
