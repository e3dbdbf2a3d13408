#include <assert.h>
/* The fuzzer fails the assertion at once (any x > 2); a symbolic run
   held to a few instructions stops before it: a finding found by fuzzing,
   not reached in time by the symbolic run. */
void f(double x) {
  double s = 0.0;
  for (int i = 0; i < 50; i++)
    s += x;
  assert(!(s > 100.0));
}
