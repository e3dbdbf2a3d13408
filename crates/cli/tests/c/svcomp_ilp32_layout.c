// SV-COMP task whose verdict is the data model's (crates/cli/tests/competition.rs):
// under ILP32 pointers are 4 bytes and a double in a struct is aligned to
// 4, so k = 3 and v = 0x1.5555555555555p-2 (v * 3 rounds to 1) reach the
// error: false(unreach-call). Under LP64, 8 * k is never 12 and the
// double is at offset 8: true.
extern unsigned char __VERIFIER_nondet_uchar(void);
extern double __VERIFIER_nondet_double(void);
extern void abort(void);
void reach_error(void) { abort(); }

struct rec {
  char tag;
  double v;
};

int main(void) {
  struct rec r;
  unsigned char k = __VERIFIER_nondet_uchar();
  r.tag = 1;
  r.v = __VERIFIER_nondet_double();
  unsigned long off = (unsigned long)((char *)&r.v - (char *)&r);
  if (k * sizeof(void *) == 12 && off == 4 && r.v * 3.0 == 1.0) reach_error();
  return 0;
}
