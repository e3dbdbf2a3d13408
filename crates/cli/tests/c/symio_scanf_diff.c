/* Ground truth for fpsym's scanf (crates/frontend/runtime/stdio.c): every
 * string of up to LEN characters over a small alphabet is read with many
 * formats by glibc's sscanf and by the runtime's (compiled natively with
 * its names prefixed, see tests/symio.rs); the results (return value,
 * every byte stored, %n counts) must be identical. Prints each difference
 * and exits 1 if there is one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int fpsym_model_sscanf(const char *s, const char *format, ...);

/* What the runtime calls where fpsym does not model glibc (the engine ends
 * the path there): never reached by these strings and formats. */
static const char *current, *current_format;
static void unmodelled(const char *what) {
  printf("unmodelled: %s for \"%s\" read with \"%s\"\n", what, current, current_format);
  exit(2);
}
void fpsym_unsupported_stream(FILE *stream) { (void)stream, unmodelled("stream"); }
void fpsym_unsupported_scanf_directive(const char *d) { unmodelled(d); }
void fpsym_unsupported_ungetc_depth(void) { unmodelled("ungetc depth"); }
void fpsym_unsupported_scanf_token_length(void) { unmodelled("token length"); }

static const char *formats[] = {
    "%lf", "%f", "%le", "%lg", "%la", "%3lf", "%2lf", "%1f", "%lf%n", "%lf %lf", "%lf,%lf",
    "%d", "%i", "%u", "%x", "%X", "%o", "%2d", "%1i", "%3x", "%hhd", "%hd", "%ld", "%lld",
    "%lu", "%zu", "%hhu", "%d%n", "%d %d", "%d.%d", "x%d", "%%%d", "%*d%d", "%*lf%n",
    "%c", "%3c", "%c%c", " %c", "%s", "%2s", "%s%n", "%[0-9.]", "%[^x]", "%2[ex]",
    "%[]x]", "%[-x]", "%[a-]", "%n%d", " %n", "%d ", "%lf ",
};

static const char alphabet[] = "019.eE+-xXpinfab \t\n";

static int compare(const char *s) {
  int bad = 0;
  for (size_t k = 0; k < sizeof formats / sizeof *formats; k++) {
    unsigned char a[3][32], b[3][32];
    memset(a, 0xaa, sizeof a);
    memset(b, 0xaa, sizeof b);
    current = s;
    current_format = formats[k];
    int ra = sscanf(s, formats[k], a[0], a[1], a[2]);
    int rb = fpsym_model_sscanf(s, formats[k], b[0], b[1], b[2]);
    if (ra != rb || memcmp(a, b, sizeof a) != 0) {
      printf("differs: sscanf(\"");
      for (const char *p = s; *p; p++)
        printf(*p == '\n' ? "\\n" : "%c", *p);
      printf("\", \"%s\"): glibc %d, fpsym %d\n", formats[k], ra, rb);
      bad = 1;
    }
  }
  return bad;
}

int main(void) {
  enum { LEN = 4 };
  int n = (int)strlen(alphabet);
  int bad = 0;
  long tried = 0;
  char s[LEN + 1];
  for (int len = 0; len <= LEN; len++) {
    long total = 1;
    for (int i = 0; i < len; i++)
      total *= n;
    for (long code = 0; code < total; code++) {
      long c = code;
      for (int i = 0; i < len; i++) {
        s[i] = alphabet[c % n];
        c /= n;
      }
      s[len] = '\0';
      bad |= compare(s);
      tried++;
      if (bad && tried > 1000)
        break;
    }
  }
  /* Longer numbers: digits, exponents, hex floats, overflow. */
  static const char *more[] = {
      "123456789", "4294967296", "-2147483649", "99999999999999999999", "0x7fffffffffffffff1",
      "1e308", "1e309", "-1e400", "4.9e-324", "2.4e-324", "0x1.fffffffffffffp1023", "0x1p-1074",
      "3.4028235e38", "3.40282357e38", "1.17549435e-38", "1.4e-45", "0.1", "123.456e-7",
      "infinity", "INFINITY", "-InFiNiTy", "infinit", "nanx", "-nan", "  +.5e+2x", "0x.8p1",
      "0xp1", "0x", "00x1", "1e+", "1e-x", ".e1", "-.", "0X1P-2",
      /* Doubles halfway between two floats; the decimals above, below, on. */
      "16777217.0000000001", "16777216.9999999999", "-16777217.0000000001", "16777217",
      "3.40282356779733661637539395458142568448e38", "3.4028235677973366e38",
      "3.4028235677973365e38", "7.00649232162408535461864791644958065640e-46",
  };
  for (size_t k = 0; k < sizeof more / sizeof *more; k++)
    bad |= compare(more[k]);
  printf("%ld strings compared\n", tried);
  return bad;
}
