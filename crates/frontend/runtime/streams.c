/* fpsym C runtime: what a program asks of its streams and locale
 * (fileno, isatty, nl_langinfo), as a test runs natively: standard streams
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
