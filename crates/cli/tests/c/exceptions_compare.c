#include <math.h>
/* Quiet and signalling compares, as clang-14 -O0 lowers them on x86-64. */
int branchy(double x, float y) { int n = 0; if (x < 1.0) n++; if (y >= 2.0f) n++; return n + (x > 3.0 ? 4 : 5) + (x <= y); }
double picked(double x) { double r = !(x < 1.0) ? 2.0 : 3.0; return r; }
float lanes(float a, float b) { typedef float v4 __attribute__((vector_size(16))); v4 u = {a, 1, 2, 3}; v4 w = {b, 1, 2, 3}; v4 m = (v4)(u < w); return m[0]; }
double widest(double x) { return fmax(x, 1.0); }
int quad(double x) { __float128 q = x; return q < 1 ? 1 : 0; }
int quad_eq(double x) { __float128 q = x; return q == 1 ? 1 : 0; }
long double sterbenz_long(long double x, long double y) { return x + (y - x) / 2; }
double sel(double x) { return x > 0.0 ? 1.0 : -1.0; }
