/* fread, fgetc, getc and fscanf(stdin, ...) on --sym-stdin 3: the
 * assertion needs the input "ok!" (fread takes two bytes, fgetc the third,
 * then end of file for getc and fscanf). */
#include <assert.h>
#include <stdio.h>

int main(void) {
  char buf[2];
  size_t n = fread(buf, 1, 2, stdin);
  int c = fgetc(stdin);
  int d = getc(stdin);
  int k;
  int r = fscanf(stdin, "%d", &k);
  if (n == 2 && buf[0] == 'o' && buf[1] == 'k' && c == '!' && d == EOF && r == EOF)
    assert(0 && "read \"ok!\"");
  return c == EOF ? 1 : 0;
}
