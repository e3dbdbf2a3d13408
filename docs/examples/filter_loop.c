// A second-order filter over sensor samples, run for as long as samples
// arrive: can its output leave [-4, 4]? (It cannot: the filter is stable,
// its gain bounds the output near 1.4. No run of finite length shows it;
// fpsym proves it with a loop invariant.)
extern double __VERIFIER_nondet_double(void);
extern int __VERIFIER_nondet_int(void);
extern void abort(void);
void reach_error(void) { abort(); }

int main(void) {
  double y1 = 0.0, y2 = 0.0;
  while (__VERIFIER_nondet_int()) {
    double x = __VERIFIER_nondet_double();
    if (!(x >= -1.0 && x <= 1.0)) continue; /* NaN too */
    double y = 0.3 * x + 1.2 * y1 - 0.5 * y2;
    y2 = y1;
    y1 = y;
    if (y < -4.0 || y > 4.0) reach_error();
  }
  return 0;
}
