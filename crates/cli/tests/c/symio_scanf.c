/* Two doubles read from standard input with scanf: run with --sym-stdin 3,
 * fpsym finds input such as "3 0" reaching the integer division by zero
 * behind the float comparisons; replay writes it to the process's stdin. */
#include <stdio.h>

int main(void) {
  double a, b;
  int n = scanf("%lf %lf", &a, &b);
  if (n != 2)
    return n == EOF ? 3 : 2;
  if (a > 2.5 && b < a - 2.0) {
    int d = (int)b;
    return 10 / d;
  }
  return 0;
}
