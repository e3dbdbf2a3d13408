#include <assert.h>
#include <math.h>
/* fmax(-0.0, +0.0) is -0.0 natively on x86-64 (maxsd returns its second
   operand on a tie): never "verified". */
void f(double a, double b) {
  if (a == 0.0 && b == 0.0 && signbit(a) && !signbit(b))
    assert(!signbit(fmax(a, b)));
}
