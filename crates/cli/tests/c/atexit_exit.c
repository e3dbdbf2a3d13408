#include <klee/klee.h>
#include <stdlib.h>
extern void reach_error(void);
static void h2(void) { exit(7); }      /* exit inside a handler: glibc ends with status 7 */
static void h1(void) { }
int main(void) {
  int x = klee_range(0, 2, "x");
  atexit(h1);
  atexit(h2);
  return x;    /* natively exit status 7 on every path */
}
// expect-verdict: verified
