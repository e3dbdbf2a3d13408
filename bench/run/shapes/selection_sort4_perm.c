// selection_sort4_perm.c: selection sort of 4 non-NaN doubles, then checks
// that the output is ascending and is a permutation of the input: for every
// output value, the number of equal inputs equals the number of equal outputs.
// expect: safe
// why-safe: the sort only swaps elements (no arithmetic), so the output is a
// permutation of the input and equality counts agree under any equivalence;
// with NaN excluded '<' is a total preorder and selection sort leaves the
// array ascending.
#include <math.h>

extern double __VERIFIER_nondet_double(void);
extern void __VERIFIER_assume(int);
extern void reach_error(void);

#define N 4

int main(void) {
  double a[N], in[N];
  for (int i = 0; i < N; i++) {
    a[i] = __VERIFIER_nondet_double();
    __VERIFIER_assume(a[i] == a[i]);
    in[i] = a[i];
  }
  for (int i = 0; i < N - 1; i++) {
    int m = i;
    for (int j = i + 1; j < N; j++)
      if (a[j] < a[m])
        m = j;
    double t = a[i];
    a[i] = a[m];
    a[m] = t;
  }
  for (int i = 0; i + 1 < N; i++)
    if (!(a[i] <= a[i + 1]))
      reach_error();
  for (int i = 0; i < N; i++) {
    int cin = 0, cout = 0;
    for (int j = 0; j < N; j++) {
      cin += (in[j] == a[i]);
      cout += (a[j] == a[i]);
    }
    if (!(cin == cout))
      reach_error();
  }
  return 0;
}
