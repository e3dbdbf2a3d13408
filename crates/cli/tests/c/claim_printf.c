#include <assert.h>
#include <stdio.h>
/* What the printf family returns is glibc's: printf("%f\n", 1.5) prints
   "1.500000\n" and returns 9, puts("abc") returns 4, putchar(200) 200. */
void f(double x) {
  if (x == 1.5) {
    int n = printf("%f\n", x);
    assert(n != 9);
  }
}

void g(void) {
  assert(puts("abc") == 4);
  assert(putchar(200) == 200);
  assert(printf("50%% done\n") == 9);
  assert(fputs("ab", stdout) == 1);
}
