#include <errno.h>
#include <langinfo.h>
#include <limits.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <klee/klee.h>
extern void reach_error(void);

/* What a program asks of its streams and locale, as tests run natively:
   standard streams redirected (no terminal), the C locale. */
int main(void) {
  double x;
  klee_make_symbolic(&x, sizeof x, "x");
  int fd = fileno(stdout);
  errno = 0;
  int tty = isatty(fd);
  const char *dot = nl_langinfo(RADIXCHAR);
  const char *codeset = nl_langinfo(CODESET);
  if (fd != 1 || fileno(stderr) != 2 || fileno(stdin) != 0)
    reach_error();
  if (tty || errno != ENOTTY)
    reach_error();
  if (strcmp(dot, ".") != 0 || strcmp(codeset, "ANSI_X3.4-1968") != 0 || *nl_langinfo(THOUSEP))
    reach_error();
  struct lconv *lc = localeconv();
  if (strcmp(lc->decimal_point, ".") != 0 || *lc->thousands_sep || *lc->currency_symbol ||
      lc->frac_digits != CHAR_MAX || lc->int_n_sign_posn != CHAR_MAX)
    reach_error();
  if (x > 1.0 && x < 1.5 && dot[0] == '.')
    reach_error();
  return 0;
}
// expect-finding: reach-error 32
