#include <math.h>
double ratio(double x, double y) { return x / y; }
double root(double x) { return sqrt(x); }
double lg(double x) { return log(x); }
short to_short(double x) { return (short)x; }
double square(double x) { return x * x; }
double in_range(unsigned long long u) { double x; __builtin_memcpy(&x, &u, 8); if (x > 1.0 && x < 2.0) return x + 1.0; return 0.0; }
double half(float x) { return x / 2.0f; }
#include <fenv.h>
double chopped(double x) { fesetround(FE_TOWARDZERO); double r = x * 4.0; fesetround(FE_TONEAREST); return r; }
float narrow(double x) { return (float)x; }
double fused(double a, double b, double c) { return fma(a, b, c); }
float from_long(long long n) { return (float)n; }
double grow(double x) { return ldexp(x, 1000); }
double sel(double x) { return x > 0.0 ? 1.0 : -1.0; }
double power(double x, double y) { return pow(x, y); }
double both(int a, int b, double x) { int q = a / b; return x * x + q; }
double av3(double x, double y) { return x + (y - x) / 2.0; }
double expo(double x) { return exp(x); }
double capped(double x) { if (x > 700.0) x = 700.0; return exp(x); }
double wave(double x) { return sin(x); }
