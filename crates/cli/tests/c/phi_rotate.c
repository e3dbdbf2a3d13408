// expect-verdict: verified
// expect-paths: 2
// Three rotations of (a, b, c) give them back: no finding. mem2reg turns the
// loop's variables into phis that read each other (c's new value is a's
// old one); evaluating them one after another reported a false bug.
#include <klee/klee.h>
extern void reach_error(void);

int main(void) {
  double a;
  klee_make_symbolic(&a, sizeof a, "a");
  double b = 2.0, c = 3.0;
  for (int i = 0; i < 3; i++) {
    double t = a;
    a = b;
    b = c;
    c = t;
  }
  if (b != 2.0 || c != 3.0)
    reach_error();
  if (a > 0.0)
    return 1;
  return 0;
}
