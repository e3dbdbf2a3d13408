/* The fuzzing phase's long double fixture: the failed assertion needs
   x = LDBL_MAX (all 64 significand bits set, exponent 0x7ffe), which the
   FP-aware mutator puts into a long double parameter's 16-byte slot.
   Expected: one assertion-failure at line 10, found by the fuzzing phase
   with --fuzz-time. */
#include <assert.h>
#include <float.h>

int largest(long double x) {
  if (x == LDBL_MAX) assert(0 && "largest long double");
  return 0;
}
