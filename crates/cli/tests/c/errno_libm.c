#include <klee/klee.h>
#include <math.h>
#include <errno.h>
extern void reach_error(void);
int main(void) {
  double x; klee_make_symbolic(&x, sizeof x, "x");
  errno = 0;
  double y = sqrt(x);
  if (errno == EDOM) reach_error();    /* natively reached for x < 0 (glibc sets EDOM) */
  return y > 1.0;
}
// expect-finding: reach-error 9
