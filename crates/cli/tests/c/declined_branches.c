/* Branches some portfolio members cannot take: z3 has no theory of glibc's
 * pow (`fpsym.pow`) and refuses fp.rem in x86_fp80 (its encoding grows
 * with 2^eb); cvc5 refuses other queries. cp decides both, the remainder
 * one only with more time than the first --solver-timeout gives: the
 * branch must stay pending and be retried, not dropped as "unsupported". */
#include <assert.h>
#include <math.h>

int remainder_branch(long double x) {
  long double r = fmodl(x, 3.0L);
  if (r > 2.5L && x < 10.0L)
    assert(0); /* line 12 */
  return 0;
}

int pow_branch(double x, double y) {
  if (pow(x, y) > 1e300 && x < 2.0 && y < 1100.0)
    assert(0); /* line 18 */
  return 0;
}
