// A struct passed by value (LLVM `byval`): the callee gets its own copy
// and writes to it; the caller's struct stays as it was, as natively.
// expect-verdict: verified
// expect-paths: 2
#include <klee/klee.h>
extern void reach_error(void);

struct big { double a[5]; int k; };

static int mod(struct big b, int x) {
  b.a[0] = 99;
  b.k = x;
  return b.k + (int)b.a[1];
}

int main(void) {
  struct big s = {{1, 2, 3, 4, 5}, 1};
  int x;
  klee_make_symbolic(&x, sizeof x, "x");
  int r = mod(s, x);
  if (s.a[0] != 1.0 || s.k != 1)
    reach_error();
  if (r == 7)
    return 1;
  return 0;
}
