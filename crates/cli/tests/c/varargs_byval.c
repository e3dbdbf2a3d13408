#include <klee/klee.h>
#include <stdarg.h>
extern void reach_error(void);
struct P { double x, y; };   /* two SSE eightbytes */
static double f(int n, ...) {
  va_list ap; va_start(ap, n);
  double s = 0;
  for (int i = 0; i < 7; i++) s += va_arg(ap, double);
  struct P p = va_arg(ap, struct P);   /* only one xmm left: whole struct on the stack */
  double t = va_arg(ap, double);       /* this one goes in xmm7 */
  va_end(ap);
  return s + p.x * 100 + p.y * 1000 + t * 10000;
}
int main(void) {
  double x; klee_make_symbolic(&x, sizeof x, "x");
  struct P p = { x, 2.0 };
  double r = f(0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, p, 3.0);
  /* 7 + 100x + 2000 + 30000 */
  if (r == 32107.0) reach_error();  /* x == 1 */
  return 0;
}
// expect-finding: reach-error 19
