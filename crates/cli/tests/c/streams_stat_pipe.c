#include <stdio.h>
#include <sys/stat.h>
extern void reach_error(void);

/* With --sym-stdin, standard input is a pipe (replay writes the test's
   bytes into it). */
// fpsym-flags: --sym-stdin 2
int main(void) {
  struct stat in;
  if (fstat(fileno(stdin), &in) != 0 || !S_ISFIFO(in.st_mode) || in.st_size != 0)
    reach_error();
  fprintf(stderr, "standard input is a pipe\n");
  if (getchar() == '7')
    reach_error();
  return 0;
}
// expect-finding: reach-error 14
