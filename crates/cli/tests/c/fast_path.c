// The concrete fast path: concrete work of every kind it runs (integer and
// float arithmetic, comparisons, casts, bit patterns, loads and stores of
// every size through arrays, structs and unions, phis, calls, returns),
// switches, interleaved with symbolic work it leaves to the executor, and findings
// reached through both. A run with the fast path and one without
// (--no-fast-path) must agree exactly (tests/run.rs).
// expect-finding: division-by-zero 77
// expect-finding: reach-error 81
// expect-finding: reach-error 86
// expect-finding: out-of-bounds 89
#include <klee/klee.h>
#include <string.h>
extern void reach_error(void);

struct rec { char c; short s; int i; long l; float f; double d; };
union pun { double d; unsigned long u; float f[2]; unsigned char b[8]; };

static double mix(double x, int i, float y) {
  double r = x * 0.75 + (double)(i % 5) - (double)y / 3.0;
  if (r > 1e6) r = -r;
  return r;
}

static long ints(long a, int b, unsigned char c) {
  long r = a * 3 - b;
  r ^= (long)c << 7;
  r += (unsigned)b >> 3;
  r += b >> 2;
  r += (long)(short)(a * 977);
  r += (b != 0) ? a / b + a % b : 0;
  return r;
}

int main(void) {
  int k;
  klee_make_symbolic(&k, sizeof k, "k");
  double acc = 0.0;
  float facc = 1.0f;
  long s = 0;
  int a[16] = {0};
  struct rec r[4];
  memset(r, 0, sizeof r);
  union pun p;
  for (int i = 0; i < 300; i++) {
    acc = mix(acc, i, facc);
    facc = facc * 1.0001f + (float)i / 7.0f;
    a[i & 15] += i;
    switch (i & 7) { case 1: s += 3; break; case 4: s ^= 5; break; case 6: s -= i; break; default: break; }
    s += ints(s & 0xffff, i - 150, (unsigned char)i);
    s += a[(i * 7) & 15] % 13;
    r[i & 3].c = (char)i;
    r[i & 3].s = (short)(i * 300);
    r[i & 3].i = i * 70000;
    r[i & 3].l = s;
    r[i & 3].f = facc;
    r[i & 3].d = acc;
    p.d = acc;
    s += (long)(p.u >> 52) + p.b[3] + (long)p.f[1];
    unsigned u = (unsigned)(acc < 0 ? -acc : acc);
    s += (long)u + (long)(float)u + (long)(int)facc;
  }
  long double ld = 1.0L; /* x86_fp80 on fpsym's soft-float */
  for (int i = 0; i < 50; i++)
    ld = ld * 1.1L + (long double)acc / 3.0L;
  s += (ld > 1e5L) + (long)(double)ld % 3;
  double tiny = 1e-300;
  for (int i = 0; i < 30; i++)
    tiny = tiny / 1e10; /* into the subnormals, then zero */
  float big = 3e38f;
  big = big * 10.0f; /* +inf */
  double nan = big - big; /* NaN: the executor's */
  s += (nan != nan) + (tiny == 0.0) + r[1].c + r[2].s + r[3].i;
  /* Symbolic work after the concrete prefix. */
  int d = k - (int)(s & 7) - 1;
  switch (k) { case 7: s += 2; break; case 9: s -= 1; break; default: break; }
  if (k > 1000 && k < 1010)
    s += 100 / (k - 1003); /* division by zero for one k */
  if (acc > 0 && k == 77)
    s += r[k & 3].i;
  if (k == (int)(s & 0xff))
    reach_error();
  double x = acc + k;
  if (x == acc + 12.0 && d != 3)
    s++;
  if (k == -5 && facc > 100.0f)
    reach_error();
  int idx = 16 + (k & 1);
  if (k > 2000 && k < 2100)
    s += a[idx]; /* just past the end */
  return (int)(s & 1);
}
