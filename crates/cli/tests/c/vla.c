#include <klee/klee.h>
extern void reach_error(void);

/* A C99 variable-length array of a symbolic length: its size stays
   symbolic and every access is checked against it. */
int main(void) {
  int n = klee_range(1, 9, "n");
  double a[n];
  for (int i = 0; i < 4 && i < n; i++)
    a[i] = i;
  int k = klee_range(0, 8, "k"); /* always inside the 64 bytes reserved */
  if (k < 4 && k < n && a[k] == 3.0)
    reach_error(); /* k = 3, n >= 4 */
  a[k] = 1.0;      /* out of bounds when k >= n */
  return 0;
}
// expect-finding: reach-error 13
// expect-finding: out-of-bounds 14
