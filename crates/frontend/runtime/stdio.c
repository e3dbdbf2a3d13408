/* fpsym C runtime: reading standard input (<stdio.h>): getchar, getc,
 * fgetc, getc_unlocked, getchar_unlocked, fgetc_unlocked, ungetc, fgets,
 * fread, feof, ferror, clearerr, and the scanf family (scanf, fscanf,
 * sscanf, vscanf, vfscanf, vsscanf, and glibc's __isoc99_ names the
 * headers redirect them to). Compiled to bitcode and linked with the
 * program; every function is weak.
 *
 * Standard input is the buffer the engine gives (fpsym_stdin_data,
 * fpsym_stdin_size: `--sym-stdin N`, N symbolic bytes), then end of file;
 * without it standard input is empty. End of file is sticky (glibc 2.28
 * and later); ungetc pushes back up to FPSYM_PUSHBACK characters.
 *
 * scanf follows glibc 2.36's vfscanf step by step (which characters each
 * conversion consumes, what it pushes back, when it fails, the value of
 * the result) in the C locale: directives %d %i %u %o %x %X %f %F %e %E
 * %g %G %a %A %c %s %[...] %n %% with field widths, `*` and the length
 * modifiers hh h l ll q j z t L. The numbers are converted with the
 * runtime's strtol/strtoul/strtod, as glibc converts with its own.
 * Not modelled (the path ends at a call of an undefined
 * fpsym_unsupported_* function, an event): %p, %lc %ls %l[ %C %S (wide
 * characters), %Lf and the other long double conversions, positional
 * arguments (%1$d), the I flag (locale digits), the %m allocation modifier, streams other than stdin,
 * more than FPSYM_PUSHBACK characters pushed back, and numbers longer than
 * FPSYM_TOKEN characters. A float (%f into a float *) is read with strtod
 * and rounded as strtof rounds (see fpsym_to_float). */
#include <stdarg.h>
#include <stddef.h>

#define WEAK __attribute__((weak))
#define FPSYM_EOF (-1)
#define FPSYM_PUSHBACK 8
#define FPSYM_TOKEN 512

typedef struct _IO_FILE FILE;

long strtol(const char *nptr, char **endptr, int base);
unsigned long strtoul(const char *nptr, char **endptr, int base);
double strtod(const char *nptr, char **endptr);
int fegetround(void);
int fesetround(int mode);

/* Undefined on purpose: a call ends the path with an event naming it. */
void fpsym_unsupported_stream(FILE *stream);
void fpsym_unsupported_scanf_directive(const char *directive);
void fpsym_unsupported_ungetc_depth(void);
void fpsym_unsupported_scanf_token_length(void);

/* Standard input's bytes and length, set by the engine (--sym-stdin). */
unsigned char *fpsym_stdin_data;
unsigned long fpsym_stdin_size;
static unsigned long fpsym_stdin_pos;
static int fpsym_stdin_eof;
static int fpsym_pushed[FPSYM_PUSHBACK];
static int fpsym_npushed;

/* The stream `stdin` points to (glibc's is a FILE of libc.so). */
static char fpsym_stdin_file;
WEAK FILE *stdin = (FILE *)&fpsym_stdin_file;

static void fpsym_check_stream(FILE *stream) {
  if (stream != stdin)
    fpsym_unsupported_stream(stream);
}

/* The next byte of standard input, or EOF (which sets the EOF flag). */
static int fpsym_stdin_get(void) {
  if (fpsym_npushed > 0)
    return fpsym_pushed[--fpsym_npushed];
  if (fpsym_stdin_eof || fpsym_stdin_pos >= fpsym_stdin_size) {
    fpsym_stdin_eof = 1;
    return FPSYM_EOF;
  }
  return fpsym_stdin_data[fpsym_stdin_pos++];
}

static int fpsym_stdin_unget(int c) {
  if (c == FPSYM_EOF)
    return FPSYM_EOF;
  if (fpsym_npushed >= FPSYM_PUSHBACK)
    fpsym_unsupported_ungetc_depth();
  fpsym_pushed[fpsym_npushed++] = (unsigned char)c;
  fpsym_stdin_eof = 0;
  return (unsigned char)c;
}

WEAK int getchar(void) { return fpsym_stdin_get(); }
WEAK int getchar_unlocked(void) { return fpsym_stdin_get(); }
WEAK int fgetc(FILE *stream) {
  fpsym_check_stream(stream);
  return fpsym_stdin_get();
}
WEAK int getc(FILE *stream) { return fgetc(stream); }
WEAK int _IO_getc(FILE *stream) { return fgetc(stream); }
WEAK int getc_unlocked(FILE *stream) { return fgetc(stream); }
WEAK int fgetc_unlocked(FILE *stream) { return fgetc(stream); }

WEAK int ungetc(int c, FILE *stream) {
  fpsym_check_stream(stream);
  return fpsym_stdin_unget(c);
}

WEAK int feof(FILE *stream) {
  fpsym_check_stream(stream);
  return fpsym_stdin_eof;
}
WEAK int ferror(FILE *stream) {
  fpsym_check_stream(stream);
  return 0;
}
WEAK void clearerr(FILE *stream) {
  fpsym_check_stream(stream);
  fpsym_stdin_eof = 0;
}

/* glibc's fgets: NULL for n <= 0; "" for n == 1 without reading; else up to
 * n - 1 bytes, through the first newline; NULL (the buffer untouched) when
 * end of file comes first. */
WEAK char *fgets(char *s, int n, FILE *stream) {
  fpsym_check_stream(stream);
  if (n <= 0)
    return NULL;
  if (n == 1) {
    s[0] = '\0';
    return s;
  }
  int count = 0;
  while (count < n - 1) {
    int c = fpsym_stdin_get();
    if (c == FPSYM_EOF)
      break;
    s[count++] = (char)c;
    if (c == '\n')
      break;
  }
  if (count == 0)
    return NULL;
  s[count] = '\0';
  return s;
}
WEAK char *fgets_unlocked(char *s, int n, FILE *stream) { return fgets(s, n, stream); }

/* glibc's fread: the bytes up to end of file are stored, the count of
 * whole elements returned. */
WEAK size_t fread(void *ptr, size_t size, size_t nmemb, FILE *stream) {
  fpsym_check_stream(stream);
  size_t want = size * nmemb;
  if (want == 0)
    return 0;
  unsigned char *p = ptr;
  size_t got = 0;
  while (got < want) {
    int c = fpsym_stdin_get();
    if (c == FPSYM_EOF)
      break;
    p[got++] = (unsigned char)c;
  }
  return got == want ? nmemb : got / size;
}
WEAK size_t fread_unlocked(void *ptr, size_t size, size_t nmemb, FILE *stream) {
  return fread(ptr, size, nmemb, stream);
}

/* ---- scanf ---------------------------------------------------------------- */

/* Where scanf reads: standard input, or a string (sscanf: its NUL is the
 * end of file). `read_in` counts the characters consumed (%n). */
typedef struct {
  const unsigned char *str;
  size_t pos;
  long read_in;
} fpsym_source;

static int fpsym_inchar(fpsym_source *in) {
  int c;
  if (in->str) {
    c = in->str[in->pos];
    if (c == '\0')
      return FPSYM_EOF;
    in->pos++;
  } else {
    c = fpsym_stdin_get();
  }
  if (c != FPSYM_EOF)
    in->read_in++;
  return c;
}

static void fpsym_unchar(fpsym_source *in, int c) {
  if (c == FPSYM_EOF)
    return;
  in->read_in--;
  if (in->str)
    in->pos--;
  else
    fpsym_stdin_unget(c);
}

/* Character classes of the C locale, each one condition (`|`, not `||`):
 * on a symbolic character a path splits in two, not once per range. */
static int fpsym_space(int c) { return (c == ' ') | ((unsigned)c - '\t' <= 4u); }
static int fpsym_isdigit(int c) { return (unsigned)c - '0' <= 9u; }
static int fpsym_isxdigit(int c) {
  return ((unsigned)c - '0' <= 9u) | ((unsigned)(c | 0x20) - 'a' <= 5u);
}
/* c is the lower-case letter `lower` or its upper case (EOF is neither). */
static int fpsym_is(int c, int lower) { return (c | 0x20) == lower; }
static int fpsym_sign(int c) { return (c == '-') | (c == '+'); }

/* A token being collected for a number. */
typedef struct {
  char buf[FPSYM_TOKEN + 1];
  int len;
} fpsym_token;

static void fpsym_add(fpsym_token *t, int c) {
  if (t->len >= FPSYM_TOKEN)
    fpsym_unsupported_scanf_token_length();
  t->buf[t->len++] = (char)c;
}

/* The float strtof gives for `token`, whose strtod is d (in the current
 * rounding mode). Rounding twice (to double, then to float) gives the
 * float nearest the decimal, except in round-to-nearest when d lies
 * exactly halfway between two floats: then the decimal is above, below or
 * on that midpoint, which strtod in the two directed modes tells exactly
 * (on it, the tie goes to even as the cast of d does). */
static float fpsym_to_float(double d, const char *token) {
  float f = (float)d;
  if (d != d || (double)f == d || fegetround() != 0)
    return f;
  union {
    float f;
    unsigned int u;
  } a, b;
  a.f = f;
  double mid;
  float below, above;
  if (f == __builtin_inff() || f == -__builtin_inff()) {
    /* Past the largest float by half an ulp or more. */
    mid = f > 0 ? 0x1.ffffffp127 : -0x1.ffffffp127;
    below = f > 0 ? 0x1.fffffep127f : f;
    above = f > 0 ? f : -0x1.fffffep127f;
  } else {
    /* The neighbour of f on d's side. */
    if (f == 0.0f)
      b.u = (d < 0 ? 0x80000000u : 0u) | 1u;
    else if ((d > (double)f) == (f > 0.0f))
      b.u = a.u + 1;
    else
      b.u = a.u - 1;
    mid = ((double)f + (double)b.f) / 2;
    below = f < b.f ? f : b.f;
    above = f < b.f ? b.f : f;
  }
  if (d != mid)
    return f;
  fesetround(0x400); /* FE_DOWNWARD */
  double down = strtod(token, NULL);
  fesetround(0x800); /* FE_UPWARD */
  double up = strtod(token, NULL);
  fesetround(0); /* FE_TONEAREST */
  if (down == up)
    return f; /* exactly the midpoint */
  return down == mid ? above : below;
}

/* Flags of a directive. */
#define FPSYM_SUPPRESS 1
#define FPSYM_CHAR 2
#define FPSYM_SHORT 4
#define FPSYM_LONG 8
#define FPSYM_LONGDBL 16

static int fpsym_vscan(fpsym_source *in, const char *format, va_list ap, int isoc99) {
  const unsigned char *f = (const unsigned char *)format;
  int done = 0;
  int skip_space = 0;
  int c = 0;
  fpsym_token tok;
  while (*f != '\0') {
    int fc = *f++;
    if (fc != '%') {
      if (fpsym_space(fc)) {
        skip_space = 1;
        continue;
      }
      c = fpsym_inchar(in);
      if (c == FPSYM_EOF)
        goto input_error;
      if (skip_space) {
        while (fpsym_space(c))
          if ((c = fpsym_inchar(in)) == FPSYM_EOF)
            goto input_error;
        skip_space = 0;
      }
      if (c != fc) {
        fpsym_unchar(in, c);
        goto conv_error;
      }
      continue;
    }
    int flags = 0;
    long width = 0;
    tok.len = 0;
    if (fpsym_isdigit(*f)) {
      const unsigned char *g = f;
      while (fpsym_isdigit(*g))
        g++;
      if (*g == '$')
        fpsym_unsupported_scanf_directive("positional argument (%N$)");
    }
    while (*f == '*' || *f == '\'' || *f == 'I') {
      /* Grouping changes nothing in the C locale (no thousands separator). */
      if (*f == '*')
        flags |= FPSYM_SUPPRESS;
      else if (*f == 'I')
        fpsym_unsupported_scanf_directive("I flag (locale digits)");
      f++;
    }
    while (fpsym_isdigit(*f)) {
      if (width < 100000000)
        width = width * 10 + (*f - '0');
      f++;
    }
    if (width == 0)
      width = -1;
    switch (*f++) {
    case 'h':
      if (*f == 'h') {
        f++;
        flags |= FPSYM_CHAR;
      } else {
        flags |= FPSYM_SHORT;
      }
      break;
    case 'l':
      if (*f == 'l') {
        f++;
        flags |= FPSYM_LONGDBL | FPSYM_LONG;
      } else {
        flags |= FPSYM_LONG;
      }
      break;
    case 'q':
    case 'L':
      flags |= FPSYM_LONGDBL | FPSYM_LONG;
      break;
    case 'a':
      /* glibc's allocation modifier before s, S and [ outside C99 mode. */
      if (!isoc99 && (*f == 's' || *f == 'S' || *f == '['))
        fpsym_unsupported_scanf_directive("%a allocation modifier");
      f--;
      break;
    case 'm':
      fpsym_unsupported_scanf_directive("%m allocation modifier");
      break;
    case 'z':
    case 'j':
    case 't':
      flags |= FPSYM_LONG;
      break;
    default:
      f--;
      break;
    }
    if (*f == '\0')
      goto conv_error;
    fc = *f++;
    if (skip_space || (fc != '[' && fc != 'c' && fc != 'C' && fc != 'n')) {
      /* glibc does not read again after end of file here. */
      if (c != FPSYM_EOF) {
        do
          c = fpsym_inchar(in);
        while (fpsym_space(c));
      }
      fpsym_unchar(in, c);
      skip_space = 0;
    }
    int base;
    int is_signed = 0;
    switch (fc) {
    case '%':
      c = fpsym_inchar(in);
      if (c == FPSYM_EOF)
        goto input_error;
      if (c != fc) {
        fpsym_unchar(in, c);
        goto conv_error;
      }
      break;

    case 'n':
      if (!(flags & FPSYM_SUPPRESS)) {
        if (flags & FPSYM_LONG)
          *va_arg(ap, long *) = in->read_in;
        else if (flags & FPSYM_SHORT)
          *va_arg(ap, short *) = (short)in->read_in;
        else if (!(flags & FPSYM_CHAR))
          *va_arg(ap, int *) = (int)in->read_in;
        else
          *va_arg(ap, char *) = (char)in->read_in;
      }
      break;

    case 'c': {
      if (flags & FPSYM_LONG)
        fpsym_unsupported_scanf_directive("%lc (wide characters)");
      if (width == -1)
        width = 1;
      char *str = (flags & FPSYM_SUPPRESS) ? NULL : va_arg(ap, char *);
      c = fpsym_inchar(in);
      if (c == FPSYM_EOF)
        goto input_error;
      do {
        if (str)
          *str++ = (char)c;
      } while (--width > 0 && (c = fpsym_inchar(in)) != FPSYM_EOF);
      if (str)
        ++done;
      break;
    }

    case 's': {
      if (flags & FPSYM_LONG)
        fpsym_unsupported_scanf_directive("%ls (wide characters)");
      char *str = (flags & FPSYM_SUPPRESS) ? NULL : va_arg(ap, char *);
      c = fpsym_inchar(in);
      if (c == FPSYM_EOF)
        goto input_error;
      do {
        if (fpsym_space(c)) {
          fpsym_unchar(in, c);
          break;
        }
        if (str)
          *str++ = (char)c;
      } while ((width <= 0 || --width > 0) && (c = fpsym_inchar(in)) != FPSYM_EOF);
      if (str) {
        *str = '\0';
        ++done;
      }
      break;
    }

    case '[': {
      if (flags & FPSYM_LONG)
        fpsym_unsupported_scanf_directive("%l[ (wide characters)");
      char *str = (flags & FPSYM_SUPPRESS) ? NULL : va_arg(ap, char *);
      int not_in = 0;
      if (*f == '^') {
        f++;
        not_in = 1;
      }
      if (width < 0)
        width = 0x7fffffff;
      char set[256];
      for (int i = 0; i < 256; i++)
        set[i] = 0;
      fc = *f;
      if (fc == ']' || fc == '-') {
        set[fc] = 1;
        f++;
      }
      while ((fc = *f++) != '\0' && fc != ']') {
        if (fc == '-' && *f != '\0' && *f != ']' && f[-2] <= *f) {
          for (fc = f[-2]; fc < *f; ++fc)
            set[fc] = 1;
        } else {
          set[fc] = 1;
        }
      }
      if (fc == '\0')
        goto conv_error;
      long now = in->read_in;
      c = fpsym_inchar(in);
      if (c == FPSYM_EOF)
        goto input_error;
      do {
        if (set[(unsigned char)c] == not_in) {
          fpsym_unchar(in, c);
          break;
        }
        if (str)
          *str++ = (char)c;
      } while (--width > 0 && (c = fpsym_inchar(in)) != FPSYM_EOF);
      if (now == in->read_in)
        goto conv_error;
      if (str) {
        *str = '\0';
        ++done;
      }
      break;
    }

    case 'x':
    case 'X':
      base = 16;
      goto number;
    case 'o':
      base = 8;
      goto number;
    case 'u':
      base = 10;
      goto number;
    case 'd':
      base = 10;
      is_signed = 1;
      goto number;
    case 'i':
      base = 0;
      is_signed = 1;
    number:
      c = fpsym_inchar(in);
      if (c == FPSYM_EOF)
        goto input_error;
      if (fpsym_sign(c)) {
        fpsym_add(&tok, c);
        if (width > 0)
          --width;
        c = fpsym_inchar(in);
      }
      if (width != 0 && c == '0') {
        if (width > 0)
          --width;
        fpsym_add(&tok, c);
        c = fpsym_inchar(in);
        if (width != 0 && fpsym_is(c, 'x')) {
          if (base == 0)
            base = 16;
          if (base == 16) {
            if (width > 0)
              --width;
            c = fpsym_inchar(in);
          }
        } else if (base == 0) {
          base = 8;
        }
      }
      if (base == 0)
        base = 10;
      while (c != FPSYM_EOF && width != 0) {
        if (base == 16) {
          if (!fpsym_isxdigit(c))
            break;
        } else if (!((unsigned)c - '0' < (unsigned)base)) {
          break;
        }
        fpsym_add(&tok, c);
        if (width > 0)
          --width;
        c = fpsym_inchar(in);
      }
      fpsym_unchar(in, c);
      if (tok.len == 0 || (tok.len == 1 && (tok.buf[0] == '+' || tok.buf[0] == '-')))
        goto conv_error;
      tok.buf[tok.len] = '\0';
      {
        char *end;
        long sl = 0;
        unsigned long ul = 0;
        if (is_signed)
          sl = strtol(tok.buf, &end, base);
        else
          ul = strtoul(tok.buf, &end, base);
        if (end == tok.buf)
          goto conv_error;
        if (!(flags & FPSYM_SUPPRESS)) {
          if (is_signed) {
            if (flags & FPSYM_LONG)
              *va_arg(ap, long *) = sl;
            else if (flags & FPSYM_SHORT)
              *va_arg(ap, short *) = (short)sl;
            else if (!(flags & FPSYM_CHAR))
              *va_arg(ap, int *) = (int)sl;
            else
              *va_arg(ap, signed char *) = (signed char)sl;
          } else {
            if (flags & FPSYM_LONG)
              *va_arg(ap, unsigned long *) = ul;
            else if (flags & FPSYM_SHORT)
              *va_arg(ap, unsigned short *) = (unsigned short)ul;
            else if (!(flags & FPSYM_CHAR))
              *va_arg(ap, unsigned int *) = (unsigned int)ul;
            else
              *va_arg(ap, unsigned char *) = (unsigned char)ul;
          }
          ++done;
        }
      }
      break;

    case 'e':
    case 'E':
    case 'f':
    case 'F':
    case 'g':
    case 'G':
    case 'a':
    case 'A': {
      if (flags & FPSYM_LONGDBL)
        fpsym_unsupported_scanf_directive("long double conversion (%Lf)");
      int got_digit = 0, got_dot = 0, got_e = 0, got_sign = 0, hexa = 0;
      c = fpsym_inchar(in);
      if (width > 0)
        --width;
      if (c == FPSYM_EOF)
        goto input_error;
      if (fpsym_sign(c)) {
        got_sign = 1;
        fpsym_add(&tok, c);
        if (width == 0 || (c = fpsym_inchar(in)) == FPSYM_EOF)
          goto conv_error;
        if (width > 0)
          --width;
      }
      if (fpsym_is(c, 'n')) {
        fpsym_add(&tok, c);
        if (width == 0 || (c = fpsym_inchar(in)) == FPSYM_EOF || !fpsym_is(c, 'a'))
          goto conv_error;
        if (width > 0)
          --width;
        fpsym_add(&tok, c);
        if (width == 0 || (c = fpsym_inchar(in)) == FPSYM_EOF || !fpsym_is(c, 'n'))
          goto conv_error;
        if (width > 0)
          --width;
        fpsym_add(&tok, c);
        goto scan_float;
      }
      if (fpsym_is(c, 'i')) {
        fpsym_add(&tok, c);
        if (width == 0 || (c = fpsym_inchar(in)) == FPSYM_EOF || !fpsym_is(c, 'n'))
          goto conv_error;
        if (width > 0)
          --width;
        fpsym_add(&tok, c);
        if (width == 0 || (c = fpsym_inchar(in)) == FPSYM_EOF || !fpsym_is(c, 'f'))
          goto conv_error;
        if (width > 0)
          --width;
        fpsym_add(&tok, c);
        if (width != 0 && (c = fpsym_inchar(in)) != FPSYM_EOF) {
          if (fpsym_is(c, 'i')) {
            const char *rest = "nity";
            if (width > 0)
              --width;
            fpsym_add(&tok, c);
            for (int k = 0; rest[k] != '\0'; k++) {
              if (width == 0 || (c = fpsym_inchar(in)) == FPSYM_EOF || !fpsym_is(c, rest[k]))
                goto conv_error;
              if (width > 0)
                --width;
              fpsym_add(&tok, c);
            }
          } else {
            fpsym_unchar(in, c);
          }
        }
        goto scan_float;
      }
      {
        int exp_char = 'e';
        if (width != 0 && c == '0') {
          fpsym_add(&tok, c);
          c = fpsym_inchar(in);
          if (width > 0)
            --width;
          if (width != 0 && fpsym_is(c, 'x')) {
            fpsym_add(&tok, c);
            hexa = 1;
            exp_char = 'p';
            c = fpsym_inchar(in);
            if (width > 0)
              --width;
          } else {
            got_digit = 1;
          }
        }
        for (;;) {
          if (fpsym_isdigit(c)) {
            fpsym_add(&tok, c);
            got_digit = 1;
          } else if (!got_e && hexa && fpsym_isxdigit(c)) {
            fpsym_add(&tok, c);
            got_digit = 1;
          } else if (got_e && tok.buf[tok.len - 1] == exp_char && fpsym_sign(c)) {
            fpsym_add(&tok, c);
          } else if (got_digit && !got_e && fpsym_is(c, exp_char)) {
            fpsym_add(&tok, exp_char);
            got_e = got_dot = 1;
          } else if (!got_dot && c == '.') {
            fpsym_add(&tok, c);
            got_dot = 1;
          } else {
            fpsym_unchar(in, c);
            break;
          }
          if (width == 0 || (c = fpsym_inchar(in)) == FPSYM_EOF)
            break;
          if (width > 0)
            --width;
        }
      }
      if (tok.len == got_sign || (hexa && tok.len == 2 + got_sign))
        goto conv_error;
    scan_float:
      tok.buf[tok.len] = '\0';
      {
        char *end;
        double d = strtod(tok.buf, &end);
        if (end == tok.buf)
          goto conv_error;
        if (!(flags & FPSYM_SUPPRESS)) {
          if (flags & FPSYM_LONG)
            *va_arg(ap, double *) = d;
          else
            *va_arg(ap, float *) = fpsym_to_float(d, tok.buf);
          ++done;
        }
      }
      break;
    }

    case 'p':
      fpsym_unsupported_scanf_directive("%p");
      goto conv_error;
    case 'C':
    case 'S':
      fpsym_unsupported_scanf_directive("%C/%S (wide characters)");
      goto conv_error;
    default:
      /* glibc: an unknown conversion is a matching failure. */
      goto conv_error;
    }
  }
  /* A white space at the end of the format consumes the white space left. */
  if (skip_space) {
    do
      c = fpsym_inchar(in);
    while (fpsym_space(c));
    fpsym_unchar(in, c);
  }
  return done;
input_error:
  return done == 0 ? FPSYM_EOF : done;
conv_error:
  return done;
}

static int fpsym_vscanf_stdin(const char *format, va_list ap, int isoc99) {
  fpsym_source in = {NULL, 0, 0};
  return fpsym_vscan(&in, format, ap, isoc99);
}

static int fpsym_vsscanf(const char *s, const char *format, va_list ap, int isoc99) {
  fpsym_source in = {(const unsigned char *)s, 0, 0};
  return fpsym_vscan(&in, format, ap, isoc99);
}

WEAK int vscanf(const char *format, va_list ap) { return fpsym_vscanf_stdin(format, ap, 0); }
WEAK int __isoc99_vscanf(const char *format, va_list ap) { return fpsym_vscanf_stdin(format, ap, 1); }
WEAK int vfscanf(FILE *stream, const char *format, va_list ap) {
  fpsym_check_stream(stream);
  return fpsym_vscanf_stdin(format, ap, 0);
}
WEAK int __isoc99_vfscanf(FILE *stream, const char *format, va_list ap) {
  fpsym_check_stream(stream);
  return fpsym_vscanf_stdin(format, ap, 1);
}
WEAK int vsscanf(const char *s, const char *format, va_list ap) { return fpsym_vsscanf(s, format, ap, 0); }
WEAK int __isoc99_vsscanf(const char *s, const char *format, va_list ap) {
  return fpsym_vsscanf(s, format, ap, 1);
}

WEAK int scanf(const char *format, ...) {
  va_list ap;
  va_start(ap, format);
  int r = fpsym_vscanf_stdin(format, ap, 0);
  va_end(ap);
  return r;
}
WEAK int __isoc99_scanf(const char *format, ...) {
  va_list ap;
  va_start(ap, format);
  int r = fpsym_vscanf_stdin(format, ap, 1);
  va_end(ap);
  return r;
}
WEAK int fscanf(FILE *stream, const char *format, ...) {
  fpsym_check_stream(stream);
  va_list ap;
  va_start(ap, format);
  int r = fpsym_vscanf_stdin(format, ap, 0);
  va_end(ap);
  return r;
}
WEAK int __isoc99_fscanf(FILE *stream, const char *format, ...) {
  fpsym_check_stream(stream);
  va_list ap;
  va_start(ap, format);
  int r = fpsym_vscanf_stdin(format, ap, 1);
  va_end(ap);
  return r;
}
WEAK int sscanf(const char *s, const char *format, ...) {
  va_list ap;
  va_start(ap, format);
  int r = fpsym_vsscanf(s, format, ap, 0);
  va_end(ap);
  return r;
}
WEAK int __isoc99_sscanf(const char *s, const char *format, ...) {
  va_list ap;
  va_start(ap, format);
  int r = fpsym_vsscanf(s, format, ap, 1);
  va_end(ap);
  return r;
}
