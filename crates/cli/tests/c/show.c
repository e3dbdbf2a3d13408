// fpsym show (crates/cli/tests/show.rs): one test whose inputs are a NaN
// (x), an infinity (f), an x87 subnormal (l), and an array holding a
// subnormal, a zero and a normal double (arr); plus an int (n).
#include <klee/klee.h>
extern void reach_error(void);

int main(void) {
  double x, arr[3];
  float f;
  long double l;
  int n;
  klee_make_symbolic(&x, sizeof x, "x");
  klee_make_symbolic(&f, sizeof f, "f");
  klee_make_symbolic(&l, sizeof l, "l");
  klee_make_symbolic(arr, sizeof arr, "arr");
  klee_make_symbolic(&n, sizeof n, "n");
  if (x != x && f > 3.0e38f && f - f != f - f && l > 0 && l < 3.3621031431120935063e-4932L &&
      arr[0] > 0 && arr[0] < 2.2250738585072014e-308 && arr[1] == 0 && arr[2] == 1.5 && n == -3)
    reach_error(); /* line 19 */
  return 0;
}
