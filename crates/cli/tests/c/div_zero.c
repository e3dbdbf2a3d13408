// expect-finding: division-by-zero 8
// expect-paths: 2
#include <klee/klee.h>

int main(void) {
  int x;
  klee_make_symbolic(&x, sizeof x, "x");
  int y = 100 / (x - 3);
  return y > 10;
}
