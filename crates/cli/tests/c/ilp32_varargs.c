// i386's va_list (crates/cli/tests/competition.rs): the variadic arguments
// in 4-byte stack slots (int 4 bytes, double 8, long double 12, a struct its
// size rounded to 4), walked by clang's own va_arg code. reach_error is
// reachable exactly when the double read back is the caller's x.
#include <stdarg.h>
extern double __VERIFIER_nondet_double(void);
extern void abort(void);
void reach_error(void) { abort(); }

struct pair {
  char c;
  double d;
};

static double walk(int n, ...) {
  va_list ap;
  va_start(ap, n);
  int k = va_arg(ap, int);
  long double e = va_arg(ap, long double);
  struct pair p = va_arg(ap, struct pair);
  double d = va_arg(ap, double);
  va_end(ap);
  return (double)(k + n) + (double)e + p.d + p.c + d;
}

int main(void) {
  double x = __VERIFIER_nondet_double();
  struct pair p = {1, 0.5};
  if (x > 0.0 && x < 100.0 && walk(2, 3, 0.25L, p, x) == 7.0) reach_error();
  return 0;
}
