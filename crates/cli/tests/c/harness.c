// Run with --function f: x, n and the array behind a are inputs.
#include <assert.h>
extern void reach_error(void);

double f(double x, int n, float *a) {
  if (x > 9.5 && n == 3 && a[1] < -2.0f)
    reach_error();
  return x * a[0];
}

int main(void) { return 0; }
