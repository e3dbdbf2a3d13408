/* Ariane 5 flight 501 in miniature: the horizontal bias BH, a double, was
   converted to a 16-bit signed integer without a range check; Ariane 5's
   larger horizontal velocity made it overflow.  Here BH grows with the
   horizontal velocity hv (m/s, up to Ariane 5's values) and the time t since
   lift-off.  (short)bh is computed as x86-64 does it (cvttsd2si to 32 bits,
   then the low 16 bits), so an out-of-range BH wraps.
   The assertion says the converted value fits (equals trunc(bh)).
   fpsym should find an assertion failure at line 25 with bh >= 32768. */
#include <assert.h>
#include <math.h>
extern double __VERIFIER_nondet_double(void);
extern void __VERIFIER_assume(int cond);

short convert_bh(double bh) { return (short)bh; }

int main(void) {
  double hv = __VERIFIER_nondet_double();
  double t = __VERIFIER_nondet_double();
  __VERIFIER_assume(hv >= 0.0 && hv <= 500.0);
  __VERIFIER_assume(t >= 0.0 && t <= 40.0);
  double bh = hv * t * 1.75; /* horizontal bias, arbitrary units */
  short bh16 = convert_bh(bh);

  /* The flight software assumed BH always fits in 16 bits. */
  assert((double)bh16 == trunc(bh));
  return 0;
}
// expect: lines >= 100%, findings >= 1 (all confirmed by replay)
