// Path explosion with memory per path: every symbolic byte forks, and
// each side allocates and fills a buffer. Explored breadth-first, the live
// states grow without bound; --max-memory must stop the run on the
// process's resident set (tests/limits.rs).
#include <stdlib.h>
#include <string.h>
#include <klee/klee.h>

int main(void) {
  unsigned char in[48];
  klee_make_symbolic(in, sizeof in, "in");
  char *keep[48];
  int n = 0;
  for (int i = 0; i < 48; i++) {
    keep[i] = malloc(1024);
    if (in[i] > 100)
      memset(keep[i], in[i], 1024);
    else
      n++;
  }
  return n;
}
