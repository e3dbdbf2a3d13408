/* A NaN's sign and payload as the machine keeps them: fneg, fabs and
   copysign touch the sign bit alone (xorps/andps, x87 fchs/fabs), and a
   long double NaN read from bytes keeps its encoding. Natively every
   assertion holds. */
#include <assert.h>
#include <math.h>
#include <string.h>
void signs(double x, long double y) {
  if (isnan(x)) {
    double z = -x;
    assert(signbit(z) != signbit(x));
    assert(!signbit(fabs(x)));
    assert(signbit(copysign(x, -1.0)));
  }
  if (isnan(y)) {
    long double w = -y;
    assert(signbit(w) != signbit(y));
    assert(signbit(copysignl(y, -1.0L)));
  }
}
int from_bytes(void) {
  unsigned char b[16] = {0}; /* +NaN with payload 5 */
  b[0] = 5; b[7] = 0xC0; b[8] = 0xFF; b[9] = 0x7F;
  long double x; memcpy(&x, b, sizeof x);
  assert(isnan(x) && !signbit(x));
  assert(copysignl(1.0L, x) == 1.0L);
  assert(signbit(-x));
  unsigned char c[16]; memcpy(c, &x, sizeof x);
  assert(c[0] == 5 && c[9] == 0x7F);
  return 0;
}
