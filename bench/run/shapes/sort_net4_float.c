// sort_net4_float.c: a 5-comparator sorting network over 4 non-NaN floats;
// checks that the output is ascending and that its first/last elements are
// the minimum/maximum of the inputs.
// expect: safe
// why-safe: with NaN excluded '<' orders all inputs, each compare-exchange only
// permutes values (no arithmetic), and the network (0,1)(2,3)(0,2)(1,3)(1,2)
// sorts every 4-element input, so both checks hold (-0 == +0 numerically).
#include <math.h>

extern float __VERIFIER_nondet_float(void);
extern void __VERIFIER_assume(int);
extern void reach_error(void);

static void cmpx(float *a, int i, int j) {
  if (a[j] < a[i]) {
    float t = a[i];
    a[i] = a[j];
    a[j] = t;
  }
}

int main(void) {
  float a[4], in[4];
  for (int i = 0; i < 4; i++) {
    a[i] = __VERIFIER_nondet_float();
    __VERIFIER_assume(a[i] == a[i]); /* not NaN */
    in[i] = a[i];
  }
  cmpx(a, 0, 1);
  cmpx(a, 2, 3);
  cmpx(a, 0, 2);
  cmpx(a, 1, 3);
  cmpx(a, 1, 2);
  for (int i = 0; i < 3; i++)
    if (!(a[i] <= a[i + 1]))
      reach_error();
  float mn = in[0], mx = in[0];
  for (int i = 1; i < 4; i++) {
    if (in[i] < mn) mn = in[i];
    if (in[i] > mx) mx = in[i];
  }
  if (!(a[0] == mn && a[3] == mx))
    reach_error();
  return 0;
}
