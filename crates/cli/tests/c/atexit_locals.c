#include <klee/klee.h>
#include <stdlib.h>
extern void reach_error(void);
static int *saved;
static void h(void) { if (*saved == 42) reach_error(); }   /* main has not returned: its frame is still there */
int main(void) {
  int x = klee_range(0, 100, "x");
  int local = x;
  saved = &local;
  atexit(h);
  exit(0);
}
// expect-finding: reach-error 5
