/* fpsym C runtime: what a program asks of its streams and locale
 * (fileno, isatty, nl_langinfo, localeconv), as a test runs natively: standard streams
 * redirected (no terminal), the C locale. Compiled to bitcode and linked
 * with the program; every function is weak. (Apart from stdio.c, which
 * tests also build natively beside glibc.) */
#define WEAK __attribute__((weak))

typedef struct _IO_FILE FILE;
extern FILE *stdin;
int *__errno_location(void);
void fpsym_unsupported_stream(FILE *stream);

/* Stand-ins for the output streams (the printf models do not look at
 * their stream; fileno does); stdin is stdio.c's. */
static char fpsym_stdout_file, fpsym_stderr_file;
WEAK FILE *stdout = (FILE *)&fpsym_stdout_file;
WEAK FILE *stderr = (FILE *)&fpsym_stderr_file;

/* fileno of another stream ends the path (not modelled). */
WEAK int fileno(FILE *stream) {
  if (stream == stdin) return 0;
  if (stream == stdout) return 1;
  if (stream == stderr) return 2;
  fpsym_unsupported_stream(stream);
  return -1;
}
WEAK int isatty(int fd) {
  (void)fd;
  *__errno_location() = 25; /* ENOTTY (EBADF for a closed fd is not modelled) */
  return 0;
}
/* nl_langinfo in the C locale: CODESET, RADIXCHAR and THOUSEP (glibc's item
 * numbers); another item ends the path. */
void fpsym_unsupported_langinfo(int item);
WEAK char *nl_langinfo(int item) {
  switch (item) {
  case 14: return (char *)"ANSI_X3.4-1968";
  case 0x10000: return (char *)".";
  case 0x10001: return (char *)"";
  }
  fpsym_unsupported_langinfo(item);
  return (char *)"";
}

/* localeconv in the C locale (glibc's struct lconv, field for field: the
 * decimal point ".", every other string empty, every char CHAR_MAX). */
struct lconv {
  char *decimal_point, *thousands_sep, *grouping, *int_curr_symbol, *currency_symbol, *mon_decimal_point,
      *mon_thousands_sep, *mon_grouping, *positive_sign, *negative_sign;
  char int_frac_digits, frac_digits, p_cs_precedes, p_sep_by_space, n_cs_precedes, n_sep_by_space, p_sign_posn,
      n_sign_posn, int_p_cs_precedes, int_p_sep_by_space, int_n_cs_precedes, int_n_sep_by_space, int_p_sign_posn,
      int_n_sign_posn;
};
WEAK struct lconv *localeconv(void) {
  static struct lconv c = {".", "", "", "", "", "", "", "", "", "",
                           127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127};
  return &c;
}
