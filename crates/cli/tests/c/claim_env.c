#include <assert.h>
#include <stdlib.h>
/* A program native execution contradicts by design: the model's getenv
   sees only the run's --env variables, while natively the replay driver
   also sets FPSYM_TEST (its scratch file). So every claim below is wrong
   natively, and stays so whatever the model learns. */

void assert_unset(double x) {
  double seen = getenv("FPSYM_TEST") ? 1.0 : 0.0;
  if (x > 2.0)
    assert(seen == 0.0);
}

int reach_set(double x) {
  if (x > 2.0) {
    if (getenv("FPSYM_TEST"))
      return 1;
  }
  return 0;
}

double overflow_set(double x) {
  double r = x;
  if (x > 2.0 && getenv("FPSYM_TEST"))
    r = x * 1e308;
  return r;
}
