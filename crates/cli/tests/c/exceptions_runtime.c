#include <stdlib.h>
extern void klee_make_symbolic(void *p, unsigned long n, const char *name);
int main(void) {
  char s[3];
  klee_make_symbolic(s, sizeof s, "s");
  s[2] = 0;
  double d = atof(s);
  return d > 10.0;
}
