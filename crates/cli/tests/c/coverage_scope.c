#include <stdlib.h>
/* Branch coverage of a --function run counts the function and what it may
   call: `sign` (2 edges) and `cmp` (4 edges, called by qsort through the
   address `sorted` passes), never `unrelated` (6 edges). */
int sign(double x) {
  if (x < 0) return -1;
  return 1;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  if (x < y) return -1;
  if (x > y) return 1;
  return 0;
}

int sorted(double a, double b) {
  double v[2] = {a, b};
  qsort(v, 2, sizeof v[0], cmp);
  return sign(v[0]);
}

int unrelated(int k) {
  if (k == 1) return 10;
  if (k == 2) return 20;
  if (k == 3) return 30;
  return 0;
}
