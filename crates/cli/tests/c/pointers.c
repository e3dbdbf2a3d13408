// A pointer that may point into two objects, pointer arithmetic through
// integers, and a long double written through a char pointer.
// expect-finding: reach-error 22
// expect-finding: out-of-bounds 26
#include <string.h>
extern int __VERIFIER_nondet_int(void);
extern long double __VERIFIER_nondet_long_double(void);
extern void reach_error(void);

double a = 1.0, b = 2.0;

int main(void) {
  int k = __VERIFIER_nondet_int();
  double *p = k > 0 ? &a : &b;
  *p = *p * 4.0;
  unsigned long addr = (unsigned long)&b;
  double *q = (double *)(addr + 0);
  long double ld = 1.1L;
  unsigned char raw[16] = {0};
  memcpy(raw, &ld, 10);
  if (a == 4.0 && *q == 2.0 && raw[9] == 0x3f && raw[7] == 0x8c)
    reach_error();
  char buf[8];
  memset(buf, 'x', sizeof buf);
  if (k < -5)
    return buf[k + 14];
  return 0;
}
