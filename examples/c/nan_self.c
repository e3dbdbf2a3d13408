/* NaN is the only value not equal to itself.  The inputs are not NaN, but
   their product is NaN for 0 * inf (either order); x * y != x * y is then
   true.  fpsym should find reach_error at line 15 with one input zero
   and the other infinite. */
extern double __VERIFIER_nondet_double(void);
extern void __VERIFIER_assume(int cond);
extern void reach_error(void);

int main(void) {
  double x = __VERIFIER_nondet_double();
  double y = __VERIFIER_nondet_double();
  __VERIFIER_assume(x == x && y == y); /* no NaN inputs */
  double z = x * y;
  if (z != z)
    reach_error();
  return 0;
}
// expect: lines >= 100%, findings >= 1 (all confirmed by replay)
