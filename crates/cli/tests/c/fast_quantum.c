// The fast path counts steps as the executor does (all the phis at a
// block's head are one step of the scheduling quantum): with a breadth-first
// search and an instruction limit, the states run in the same order, so a
// run with and without it ends with the same paths and tests (tests/run.rs).
// fpsym-flags: --search bfs --max-instructions 65000
#include <klee/klee.h>
unsigned g;
int main(void) {
  int x;
  klee_make_symbolic(&x, sizeof x, "x");
  if (x > 0) {            /* many phis per iteration */
    unsigned a = 1, b = 2, c = 3, d = 4;
    for (int i = 0; i < 1400; i++) { unsigned t = a; a = b + c; b = c ^ d; c = d; d = t; }
    return (a + b + c + d) & 1;
  }
  for (int i = 0; i < 3450; i++) g += i; /* one phi per iteration */
  return 2;
}
