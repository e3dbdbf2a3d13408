// insertion_sort5_nan.c: insertion sort of 5 doubles with the usual
// "shift while a[j-1] > key" loop; afterwards checks that no pair i < j is
// inverted (a[i] > a[j]). The code is meant for arbitrary doubles, but a NaN
// compares false with everything and stops the shifting, so smaller values can
// stay behind larger ones that sit in front of the NaN.
// expect: bug
// witness: a = {1, NaN, 0, 0, 0} -> result {1, NaN, 0, 0, 0}; 1 > 0 is an inversion
#include <math.h>

extern double __VERIFIER_nondet_double(void);
extern void reach_error(void);

#define N 5

int main(void) {
  double a[N];
  for (int i = 0; i < N; i++)
    a[i] = __VERIFIER_nondet_double();
  for (int i = 1; i < N; i++) {
    double key = a[i];
    int j = i;
    while (j > 0 && a[j - 1] > key) {
      a[j] = a[j - 1];
      j--;
    }
    a[j] = key;
  }
  for (int i = 0; i < N; i++)
    for (int j = i + 1; j < N; j++)
      if (!(!(a[i] > a[j])))
        reach_error();
  return 0;
}
