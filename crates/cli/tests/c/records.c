// Tests show every input's value (crates/cli/tests/records.rs): arrays
// element by element, structs by member name, integers in decimal as their
// C type says. `--function dist`: clang passes `p` as p.coerce0/p.coerce1
// and `m` as one i64 (id, flags) and one float (w); tests name them p.x,
// p.y, m.id, m.flags, m.w, and the struct q points to as q[0].x, q[0].y.
#include <klee/klee.h>
extern void reach_error(void);

struct pt { double x; double y; };
struct mix { int id; unsigned flags; float w; };

double dist(struct pt p, struct mix m, const struct pt *q) {
  if (p.x > 1.5 && p.y < -2.0 && m.id == -5 && m.flags > 4000000000u && m.w == 0.25f && q->y == 0.5)
    reach_error(); /* line 14 */
  return p.x - q->x;
}

int main(void) {
  double a[3];
  struct pt s;
  int n;
  unsigned u;
  klee_make_symbolic(a, sizeof a, "a");
  klee_make_symbolic(&s, sizeof s, "s");
  klee_make_symbolic(&n, sizeof n, "n");
  klee_make_symbolic(&u, sizeof u, "u");
  if (a[1] > 2.5 && s.y < -1.0 && n == -7 && u > 4000000000u)
    reach_error(); /* line 28 */
  return 0;
}
