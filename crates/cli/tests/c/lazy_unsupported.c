// expect-verdict: incomplete
// expect-paths: 1
// An atomic add (unsupported) in a function only one path calls: the
// module loads, the other path runs to its end, the path that reaches the
// atomic stops there naming its line.
#include <klee/klee.h>
int counter;

static int bump(void) {
  return __atomic_fetch_add(&counter, 1, __ATOMIC_SEQ_CST);
}

int main(void) {
  int x = klee_int("x");
  if (x == 42)
    return bump();
  return 0;
}
