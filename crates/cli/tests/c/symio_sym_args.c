/* Symbolic argument counts: run with --sym-args 0 1 2 --sym-arg 1, main
 * sees argc 2 or 3; the assertion needs two arguments, the first "-" or
 * "-?" and the second "v". The exit status is argc. */
#include <assert.h>

int main(int argc, char **argv) {
  if (argc == 3 && argv[1][0] == '-' && argv[2][0] == 'v')
    assert(0 && "two arguments: -... v");
  return argc;
}
