// bubble_sort4_offbyone.c: bubble sort of 4 floats in [0, 1] with an
// off-by-one in the inner loop bound (j < N - i - 2 instead of j < N - i - 1),
// so the last element is never compared; then checks that the array is sorted.
// expect: bug
// witness: a = {0.5f, 0.5f, 0.5f, 0.25f} (a[3] is never moved)
#include <math.h>

extern float __VERIFIER_nondet_float(void);
extern void __VERIFIER_assume(int);
extern void reach_error(void);

#define N 4

int main(void) {
  float a[N];
  for (int i = 0; i < N; i++) {
    a[i] = __VERIFIER_nondet_float();
    __VERIFIER_assume(a[i] >= 0.0f && a[i] <= 1.0f);
  }
  for (int i = 0; i < N - 1; i++) {
    for (int j = 0; j < N - i - 2; j++) { /* BUG: should be N - i - 1 */
      if (a[j] > a[j + 1]) {
        float t = a[j];
        a[j] = a[j + 1];
        a[j + 1] = t;
      }
    }
  }
  for (int i = 0; i + 1 < N; i++)
    if (!(a[i] <= a[i + 1]))
      reach_error();
  return 0;
}
