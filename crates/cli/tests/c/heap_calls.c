// Function pointers, switch, structs by value, the heap and the C runtime.
// expect-finding: use-after-free 29
// expect-finding: invalid-free 33
// expect-finding: reach-error 39
// expect-finding: assertion-failure 42
#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include <klee/klee.h>
extern void reach_error(void);

struct pt { double x, y; int tag; };

static double twice(double v) { return 2 * v; }
static double negate(double v) { return -v; }

static struct pt shift(struct pt p, double d) { p.x += d; p.y -= d; return p; }

int main(void) {
  int k;
  char name[4];
  klee_make_symbolic(&k, sizeof k, "k");
  klee_make_symbolic(name, sizeof name, "name");
  double (*ops[2])(double) = {twice, negate};
  double *cell = malloc(sizeof *cell);
  *cell = 1.5;
  switch (k) {
  case 1: free(cell); break;
  case 2: free(cell); return *cell > 0;
  case 3: {
    double *mid = cell;
    free(mid + 0);
    free(cell);
    return 0;
  }
  default: break;
  }
  if (k == 5 && ops[k & 1](*cell) < -1.0 && strcmp(name, "ab") == 0)
    reach_error();
  struct pt p = {1.0, 2.0, 7};
  struct pt q = shift(p, 0.5);
  assert(!(k == 6 && q.x == 1.5 && q.y == 1.5 && q.tag == 7));
  if (k != 1) free(cell);
  return 0;
}
