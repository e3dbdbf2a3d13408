/* A command-line argument parsed with atof: run with --sym-arg 3, fpsym
 * finds a string whose value is in (100, 1000), e.g. "2e2" or "101";
 * replay passes it to the process as argv[1]. */
#include <assert.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  if (argc > 1) {
    double x = atof(argv[1]);
    if (x > 100.0 && x < 1000.0)
      assert(0 && "argument in (100, 1000)");
  }
  return 0;
}
