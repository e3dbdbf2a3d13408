/* getchar, fgets, ungetc and feof on --sym-stdin 4: the assertion needs
 * the input "#!\nx" (fgets stops after the newline, the last byte is read
 * again after ungetc, then end of file). */
#include <assert.h>
#include <stdio.h>
#include <string.h>

int main(void) {
  int c = getchar();
  char line[8];
  if (c == EOF || fgets(line, sizeof line, stdin) == NULL)
    return 10; /* never: there are 4 bytes */
  if (c == '#' && line[0] == '!' && line[1] == '\n') {
    int d = getchar();
    if (ungetc(d, stdin) != d || getchar() != d)
      return 11; /* never */
    int e = getchar();
    if (d == 'x' && e == EOF && feof(stdin))
      assert(0 && "read \"#!\\nx\"");
  }
  return (int)strlen(line);
}
