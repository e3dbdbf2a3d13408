/* The fuzzing phase's long double fixture: the failed assertion of
   `largest` needs x = LDBL_MAX (all 64 significand bits set, exponent
   0x7ffe), a special value the FP-aware mutator puts into a long double
   parameter's 16-byte slot; that of `tenth` needs x = 0.1L exactly, a
   long double constant of the program. Expected: one assertion-failure
   at line 11 (line 16), found by the fuzzing phase with --fuzz-time. */
#include <assert.h>
#include <float.h>

int largest(long double x) {
  if (x == LDBL_MAX) assert(0 && "largest long double");
  return 0;
}

int tenth(long double x) {
  if (x == 0.1L) assert(0 && "a tenth");
  return 0;
}
