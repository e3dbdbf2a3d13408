/* Seed 003 (Ariadne), Fig. 1: Sterbenz's average of two doubles, four
   formulas equal over the reals, and Sterbenz's `average`, which picks
   av1, av3 or av4 by the signs of x and y.  For finite x, y the average must
   lie in [min(x, y), max(x, y)]; a nondet selector checks one variant per path.
   fpsym should find: av1 (line 41) overflows to infinity for large x, y of
   the same sign; av2 (line 42) leaves the range by underflow (x = y =
   3 * 2^-1074: x/2 and y/2 round up to 2 * 2^-1074); av3 (line 43) and av4
   (line 44) overflow in y - x for large x, y of opposite signs.  Sterbenz's
   average (line 45) is expected to stay in range: no finding there. */
#include <assert.h>
#include <math.h>
extern double __VERIFIER_nondet_double(void);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int cond);

double av1(double x, double y) { return (x + y) / 2.0; }
double av2(double x, double y) { return x / 2.0 + y / 2.0; }
double av3(double x, double y) { return x + (y - x) / 2.0; }
double av4(double x, double y) { return y + (x - y) / 2.0; }

double average(double x, double y) {
  int samesign;
  if (x >= 0) {
    if (y >= 0) samesign = 1; else samesign = 0;
  } else {
    if (y >= 0) samesign = 0; else samesign = 1;
  }
  if (samesign) {
    if (y >= x) return av3(x, y); else return av4(x, y);
  } else
    return av1(x, y);
}

int main(void) {
  double x = __VERIFIER_nondet_double();
  double y = __VERIFIER_nondet_double();
  __VERIFIER_assume(isfinite(x) && isfinite(y));
  double lo = x < y ? x : y, hi = x < y ? y : x;
#define IN_RANGE(r) assert((r) >= lo && (r) <= hi)
  switch (__VERIFIER_nondet_int()) { /* one variant per path */
  case 1: IN_RANGE(av1(x, y)); break;
  case 2: IN_RANGE(av2(x, y)); break;
  case 3: IN_RANGE(av3(x, y)); break;
  case 4: IN_RANGE(av4(x, y)); break;
  default: IN_RANGE(average(x, y)); break;
  }
  return 0;
}
// expect: lines >= 90%, findings >= 1 (all confirmed by replay)
