#include <klee/klee.h>
extern void reach_error(void);
/* A program with its own generator called rand (no <stdlib.h>). */
static unsigned next_ = 7;
int rand(void) { next_ = next_ * 1103515245u + 12345u; return (int)((next_ / 65536u) % 32768u); }
int main(void) {
  int x = klee_range(0, 100, "x");
  int r = rand();
  if (r == 4711 + x) reach_error();   /* natively: never unless x matches r; r = (7*1103515245+12345)/65536 % 32768 */
  if (r != ((7u * 1103515245u + 12345u) / 65536u) % 32768u) reach_error();  /* never natively */
  return 0;
}
// expect-verdict: verified
