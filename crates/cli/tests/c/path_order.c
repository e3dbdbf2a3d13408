/* `fpsym path --path` where a line's conditions run in another order than
 * their columns: for `a && b` clang-14 puts a's branch at the `&&` and b's
 * at the start of the condition, so b's column comes first but a runs
 * first. Naming them in column order is an input error (no execution
 * takes that order); the execution order is a path like any other. */
static double sq(double x) { return x * x; }

int order(double x, double y) {
  if ((y = sq(x)) > 4 && x < 1)
    return 1;
  for (int i = 0; i < 3 && y > x; i++)
    y = y / 2;
  return 0;
}
