/* Functions that crash only on inputs their runs exclude (--range,
   --finite-inputs, --array-len, klee_range): the fuzzer must keep to the
   same bounds. */
#include <math.h>
#include <stdlib.h>
int klee_range(int lo, int hi, const char *name);
double in_unit(double x) { if (x < 1.0 || x > 2.0) abort(); return x * x; }
double finite_only(double x, float y) { if (isnan(x) || isinf(y)) abort(); return x + y; }
double third(double *a) { return a[0] + a[1] + a[2]; }
long double narrow(long double x) { if (!(x >= 0.25L && x <= 0.75L)) abort(); return x; }
int pick(void) { int v = klee_range(0, 10, "v"); if (v < 0 || v >= 10) abort(); return v; }
int small(int n, unsigned char c) { if (n < -3 || n > 40 || c > 9) abort(); return n + c; }
long wide(unsigned long u) { if (u < 1000000000000UL) abort(); return (long)(u >> 20); }
