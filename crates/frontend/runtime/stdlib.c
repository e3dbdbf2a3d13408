/* fpsym C runtime: <stdlib.h> (abs, labs, llabs, atoi, atol, atoll, strtol,
 * strtoll, strtoul, strtoull, strtod, atof, qsort, bsearch). Compiled to
 * bitcode and linked with the program; every definition is weak.
 *
 * Differences from glibc: errno is never set (out-of-range strtol/strtod
 * results are clamped/rounded as glibc does, but ERANGE is not stored);
 * locales are not consulted (the C locale); strtod ignores NaN payloads
 * ("nan(...)" gives the default quiet NaN with the sign given).
 * strtod is correctly rounded in the current rounding mode, as glibc's:
 * short inputs (at most 15 significant digits, decimal exponent within
 * +-22) take one exactly rounded multiplication or division; the others are
 * decided exactly with big integers (read through fegetround()). */
#include <stddef.h>

#define WEAK __attribute__((weak))

int fegetround(void);

WEAK int abs(int x) { return x < 0 ? -x : x; }
WEAK long labs(long x) { return x < 0 ? -x : x; }
WEAK long long llabs(long long x) { return x < 0 ? -x : x; }

static int fpsym_isspace(int c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

static int fpsym_digit_value(int c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'z')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'Z')
    return c - 'A' + 10;
  return 99;
}

/* The common part of the strto[u]l[l] family: the magnitude (saturated at
 * limit + 1 as unsigned) and the sign; *ok is 0 when no digits were read. */
static unsigned long long fpsym_strtoull_core(const char *nptr, char **endptr, int base,
                                              int *negative, int *overflow) {
  const char *s = nptr;
  unsigned long long acc = 0;
  int any = 0;
  *negative = 0;
  *overflow = 0;
  while (fpsym_isspace((unsigned char)*s))
    s++;
  if (*s == '-') {
    *negative = 1;
    s++;
  } else if (*s == '+') {
    s++;
  }
  if ((base == 0 || base == 16) && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') &&
      fpsym_digit_value((unsigned char)s[2]) < 16) {
    s += 2;
    base = 16;
  } else if (base == 0) {
    base = s[0] == '0' ? 8 : 10;
  }
  if (base < 2 || base > 36) {
    if (endptr)
      *endptr = (char *)nptr;
    return 0;
  }
  for (;; s++) {
    int d = fpsym_digit_value((unsigned char)*s);
    if (d >= base)
      break;
    any = 1;
    if (acc > (~0ULL - (unsigned long long)d) / (unsigned long long)base)
      *overflow = 1;
    else
      acc = acc * (unsigned long long)base + (unsigned long long)d;
  }
  if (endptr)
    *endptr = (char *)(any ? s : nptr);
  if (!any)
    *negative = 0;
  return acc;
}

WEAK long long strtoll(const char *nptr, char **endptr, int base) {
  int neg, ovf;
  unsigned long long m = fpsym_strtoull_core(nptr, endptr, base, &neg, &ovf);
  unsigned long long max = 0x7fffffffffffffffULL;
  if (neg)
    return (ovf || m > max + 1) ? (-(long long)max - 1) : (long long)(0 - m);
  return (ovf || m > max) ? (long long)max : (long long)m;
}

WEAK long strtol(const char *nptr, char **endptr, int base) {
  return (long)strtoll(nptr, endptr, base);
}

WEAK unsigned long long strtoull(const char *nptr, char **endptr, int base) {
  int neg, ovf;
  unsigned long long m = fpsym_strtoull_core(nptr, endptr, base, &neg, &ovf);
  if (ovf)
    return ~0ULL;
  return neg ? 0 - m : m;
}

WEAK unsigned long strtoul(const char *nptr, char **endptr, int base) {
  return (unsigned long)strtoull(nptr, endptr, base);
}

WEAK int atoi(const char *nptr) { return (int)strtol(nptr, NULL, 10); }
WEAK long atol(const char *nptr) { return strtol(nptr, NULL, 10); }
WEAK long long atoll(const char *nptr) { return strtoll(nptr, NULL, 10); }

/* ---- strtod ------------------------------------------------------------ */

/* Little-endian big naturals of at most FPSYM_BIG_WORDS 32-bit words: enough
 * for 800 decimal digits scaled by 5^1300 and shifted by 64 bits. */
#define FPSYM_BIG_WORDS 200
#define FPSYM_MAX_DIGITS 800

typedef struct {
  int n; /* words in use; the top one is non-zero unless n == 0 */
  unsigned int w[FPSYM_BIG_WORDS];
} fpsym_big;

static void fpsym_big_set(fpsym_big *a, unsigned int v) {
  a->n = v != 0;
  a->w[0] = v;
}

static void fpsym_big_mul_add(fpsym_big *a, unsigned int m, unsigned int add) {
  unsigned long long carry = add;
  for (int i = 0; i < a->n; i++) {
    unsigned long long t = (unsigned long long)a->w[i] * m + carry;
    a->w[i] = (unsigned int)t;
    carry = t >> 32;
  }
  if (carry != 0)
    a->w[a->n++] = (unsigned int)carry;
}

static int fpsym_big_bits(const fpsym_big *a) {
  if (a->n == 0)
    return 0;
  int bits = (a->n - 1) * 32;
  unsigned int top = a->w[a->n - 1];
  while (top != 0) {
    bits++;
    top >>= 1;
  }
  return bits;
}

static void fpsym_big_shl(fpsym_big *a, int k) {
  if (a->n == 0 || k == 0)
    return;
  int words = k / 32, bits = k % 32;
  int n = a->n + words + 1;
  for (int i = n - 1; i >= 0; i--) {
    int src = i - words;
    unsigned long long hi = (src >= 0 && src < a->n) ? a->w[src] : 0;
    unsigned long long lo = (src - 1 >= 0 && src - 1 < a->n) ? a->w[src - 1] : 0;
    unsigned long long v = bits == 0 ? hi : ((hi << bits) | (lo >> (32 - bits)));
    a->w[i] = (unsigned int)v;
  }
  a->n = n;
  while (a->n > 0 && a->w[a->n - 1] == 0)
    a->n--;
}

static int fpsym_big_cmp(const fpsym_big *a, const fpsym_big *b) {
  if (a->n != b->n)
    return a->n < b->n ? -1 : 1;
  for (int i = a->n - 1; i >= 0; i--)
    if (a->w[i] != b->w[i])
      return a->w[i] < b->w[i] ? -1 : 1;
  return 0;
}

/* a -= b, given a >= b. */
static void fpsym_big_sub(fpsym_big *a, const fpsym_big *b) {
  long long borrow = 0;
  for (int i = 0; i < a->n; i++) {
    long long t = (long long)a->w[i] - (i < b->n ? (long long)b->w[i] : 0) - borrow;
    borrow = t < 0;
    a->w[i] = (unsigned int)(t + (borrow << 32));
  }
  while (a->n > 0 && a->w[a->n - 1] == 0)
    a->n--;
}

/* Halves a (shift right by one). */
static void fpsym_big_shr1(fpsym_big *a) {
  for (int i = 0; i < a->n; i++) {
    unsigned int next = i + 1 < a->n ? a->w[i + 1] : 0;
    a->w[i] = (a->w[i] >> 1) | (next << 31);
  }
  while (a->n > 0 && a->w[a->n - 1] == 0)
    a->n--;
}

static double fpsym_from_bits(unsigned long long bits) {
  union {
    unsigned long long u;
    double d;
  } v;
  v.u = bits;
  return v.d;
}

/* Rounds (-1)^neg * (q + rest) * 2^e2 to a double in the current rounding
 * mode, where q < 2^64 is an integer and rest in [0, 1) is described by
 * half (rest >= 1/2) and sticky (rest is neither 0 nor 1/2). */
static double fpsym_round(unsigned long long q, int half, int sticky, long e2, int neg) {
  int len = 0;
  for (unsigned long long t = q; t != 0; t >>= 1)
    len++;
  if (len == 0 && !half && !sticky)
    return neg ? -0.0 : 0.0;
  /* Value's exponent: q in [2^(len-1), 2^len) -> E = len - 1 + e2. */
  long exp = (long)len - 1 + e2;
  long keep = exp >= -1022 ? 53 : 53 - (-1022 - exp);
  if (len == 0)
    keep = 0; /* only the rest is non-zero: far below any double */
  long drop = len - keep; /* bits of q below the last kept one */
  unsigned long long m;
  int g, s;
  if (drop <= 0) {
    m = q << (-drop);
    g = drop == 0 ? half : 0;
    s = drop == 0 ? sticky : (half || sticky);
  } else if (drop > 64) {
    m = 0;
    g = 0;
    s = q != 0 || half || sticky;
  } else {
    m = drop == 64 ? 0 : q >> drop;
    g = (int)((q >> (drop - 1)) & 1);
    unsigned long long below = drop == 1 ? 0 : (q & ((1ULL << (drop - 1)) - 1));
    s = below != 0 || half || sticky;
  }
  int mode = fegetround();
  int up;
  if (mode == 0xc00) /* FE_TOWARDZERO */
    up = 0;
  else if (mode == 0x800) /* FE_UPWARD */
    up = !neg && (g || s);
  else if (mode == 0x400) /* FE_DOWNWARD */
    up = neg && (g || s);
  else /* FE_TONEAREST */
    up = g && (s || (m & 1));
  if (up)
    m++;
  unsigned long long bits;
  if (exp >= -1022) {
    if (m == (1ULL << 53)) {
      m >>= 1;
      exp++;
    }
    if (exp > 1023) {
      int to_inf = mode == 0 || (mode == 0x800 && !neg) || (mode == 0x400 && neg);
      bits = to_inf ? 0x7ff0000000000000ULL : 0x7fefffffffffffffULL;
    } else {
      bits = ((unsigned long long)(exp + 1023) << 52) | (m & ((1ULL << 52) - 1));
    }
  } else {
    bits = m; /* subnormal; m == 2^52 is the smallest normal */
  }
  return neg ? -fpsym_from_bits(bits) : fpsym_from_bits(bits);
}

/* (-1)^neg * (n * 2^e2 / 5^k + tiny), tiny > 0 iff sticky. */
static double fpsym_big_to_double(fpsym_big *n, long e2, int k, int sticky, int neg) {
  fpsym_big den;
  fpsym_big_set(&den, 1);
  for (int i = 0; i < k; i++)
    fpsym_big_mul_add(&den, 5, 0);
  /* Scale so the quotient has 62 or 63 bits. */
  int shift = 62 - (fpsym_big_bits(n) - fpsym_big_bits(&den));
  if (shift > 0)
    fpsym_big_shl(n, shift);
  else
    fpsym_big_shl(&den, -shift);
  e2 -= shift;
  /* Long division: q = n / den (q < 2^64), n = remainder. */
  fpsym_big d = den;
  fpsym_big_shl(&d, 63);
  unsigned long long q = 0;
  for (int i = 63; i >= 0; i--) {
    if (fpsym_big_cmp(n, &d) >= 0) {
      fpsym_big_sub(n, &d);
      q |= 1ULL << i;
    }
    fpsym_big_shr1(&d);
  }
  /* rest = n / den: compare 2n with den. */
  int half = 0, rest_sticky = 0;
  if (n->n != 0) {
    fpsym_big_shl(n, 1);
    int c = fpsym_big_cmp(n, &den);
    half = c >= 0;
    rest_sticky = c != 0;
  }
  return fpsym_round(q, half, rest_sticky || sticky, e2, neg);
}

static int fpsym_lower(int c) { return (c >= 'A' && c <= 'Z') ? c - 'A' + 'a' : c; }

static int fpsym_prefix(const char *s, const char *word) {
  int i = 0;
  for (; word[i] != '\0'; i++)
    if (fpsym_lower((unsigned char)s[i]) != word[i])
      return 0;
  return i;
}

static const double fpsym_pow10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                       1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                       1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* Hexadecimal significand after "0x": [hex digits][.hex digits][p[+-]digits]. */
static double fpsym_strtod_hex(const char *s, char **endptr, int neg) {
  fpsym_big n;
  fpsym_big_set(&n, 0);
  long e2 = 0;
  int any = 0, sticky = 0, used = 0, seen_point = 0;
  for (;; s++) {
    if (*s == '.' && !seen_point) {
      seen_point = 1;
      continue;
    }
    int d = fpsym_digit_value((unsigned char)*s);
    if (d >= 16)
      break;
    any = 1;
    if (used < FPSYM_MAX_DIGITS) {
      if (n.n != 0 || d != 0)
        used++;
      fpsym_big_mul_add(&n, 16, (unsigned int)d);
      if (seen_point)
        e2 -= 4;
    } else {
      sticky |= d != 0;
      if (!seen_point)
        e2 += 4;
    }
  }
  (void)any; /* the caller checked that a hex digit follows */
  if (*s == 'p' || *s == 'P') {
    const char *t = s + 1;
    int eneg = 0;
    if (*t == '+' || *t == '-')
      eneg = *t++ == '-';
    if (*t >= '0' && *t <= '9') {
      long e = 0;
      for (; *t >= '0' && *t <= '9'; t++)
        if (e < 100000)
          e = e * 10 + (*t - '0');
      e2 += eneg ? -e : e;
      s = t;
    }
  }
  if (endptr)
    *endptr = (char *)s;
  if (n.n == 0)
    return neg ? -0.0 : 0.0;
  return fpsym_big_to_double(&n, e2, 0, sticky, neg);
}

WEAK double strtod(const char *nptr, char **endptr) {
  const char *s = nptr;
  int neg = 0;
  while (fpsym_isspace((unsigned char)*s))
    s++;
  if (*s == '-' || *s == '+')
    neg = *s++ == '-';
  int k;
  if ((k = fpsym_prefix(s, "inf")) != 0) {
    int k2 = fpsym_prefix(s, "infinity");
    if (endptr)
      *endptr = (char *)(s + (k2 ? k2 : k));
    return neg ? -__builtin_inf() : __builtin_inf();
  }
  if ((k = fpsym_prefix(s, "nan")) != 0) {
    const char *t = s + k;
    if (*t == '(') {
      const char *u = t + 1;
      while (fpsym_digit_value((unsigned char)*u) < 36 || *u == '_')
        u++;
      if (*u == ')')
        t = u + 1;
    }
    if (endptr)
      *endptr = (char *)t;
    return neg ? -__builtin_nan("") : __builtin_nan("");
  }
  if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X') &&
      (fpsym_digit_value((unsigned char)s[2]) < 16 ||
       (s[2] == '.' && fpsym_digit_value((unsigned char)s[3]) < 16)))
    return fpsym_strtod_hex(s + 2, endptr, neg);

  /* Decimal: the significant digits (at most FPSYM_MAX_DIGITS, the rest
   * folded into sticky) and the exponent of their last digit. */
  char digits[FPSYM_MAX_DIGITS];
  int ndigits = 0, sticky = 0, any = 0, seen_point = 0;
  long exp10 = 0;
  for (;; s++) {
    if (*s == '.' && !seen_point) {
      seen_point = 1;
      continue;
    }
    if (*s < '0' || *s > '9')
      break;
    any = 1;
    int d = *s - '0';
    if (ndigits == 0 && d == 0) {
      if (seen_point)
        exp10--;
      continue;
    }
    if (ndigits < FPSYM_MAX_DIGITS) {
      digits[ndigits++] = (char)d;
      if (seen_point)
        exp10--;
    } else {
      sticky |= d != 0;
      if (!seen_point)
        exp10++;
    }
  }
  if (!any) {
    if (endptr)
      *endptr = (char *)nptr;
    return 0.0;
  }
  if (*s == 'e' || *s == 'E') {
    const char *t = s + 1;
    int eneg = 0;
    if (*t == '+' || *t == '-')
      eneg = *t++ == '-';
    if (*t >= '0' && *t <= '9') {
      long e = 0;
      for (; *t >= '0' && *t <= '9'; t++)
        if (e < 100000)
          e = e * 10 + (*t - '0');
      exp10 += eneg ? -e : e;
      s = t;
    }
  }
  if (endptr)
    *endptr = (char *)s;
  if (ndigits == 0)
    return neg ? -0.0 : 0.0;

  /* Fast path: an exact significand and one correctly rounded operation. */
  if (ndigits <= 15 && !sticky && exp10 >= -22 && exp10 <= 22) {
    long long v = 0;
    for (int i = 0; i < ndigits; i++)
      v = v * 10 + digits[i];
    double x = (double)(neg ? -v : v);
    return exp10 >= 0 ? x * fpsym_pow10[exp10] : x / fpsym_pow10[-exp10];
  }
  /* Out of range either way: the leading digit's exponent decides. */
  long lead = exp10 + ndigits - 1;
  if (lead > 310)
    return fpsym_round(1ULL << 62, 0, 0, 2000, neg); /* overflows */
  if (lead < -400)
    return fpsym_round(0, 0, 1, -2000, neg); /* below every subnormal */
  fpsym_big n;
  fpsym_big_set(&n, 0);
  for (int i = 0; i < ndigits; i++)
    fpsym_big_mul_add(&n, 10, (unsigned int)digits[i]);
  if (exp10 >= 0) {
    for (long i = 0; i < exp10; i++)
      fpsym_big_mul_add(&n, 5, 0);
    return fpsym_big_to_double(&n, exp10, 0, sticky, neg);
  }
  return fpsym_big_to_double(&n, exp10, (int)-exp10, sticky, neg);
}

WEAK double atof(const char *nptr) { return strtod(nptr, NULL); }

/* ---- qsort and bsearch --------------------------------------------------- */

static void fpsym_swap(char *a, char *b, size_t size) {
  for (size_t i = 0; i < size; i++) {
    char t = a[i];
    a[i] = b[i];
    b[i] = t;
  }
}

/* Insertion sort: stable, as glibc's merge sort, so equal elements end in
 * the same order as under glibc. */
WEAK void qsort(void *base, size_t nmemb, size_t size, int (*compar)(const void *, const void *)) {
  char *b = base;
  for (size_t i = 1; i < nmemb; i++)
    for (size_t j = i; j > 0 && compar(b + (j - 1) * size, b + j * size) > 0; j--)
      fpsym_swap(b + (j - 1) * size, b + j * size, size);
}

/* The same probe sequence as glibc's bsearch. */
WEAK void *bsearch(const void *key, const void *base, size_t nmemb, size_t size,
                   int (*compar)(const void *, const void *)) {
  size_t l = 0, u = nmemb;
  while (l < u) {
    size_t idx = (l + u) / 2;
    const char *p = (const char *)base + idx * size;
    int c = compar(key, p);
    if (c < 0)
      u = idx;
    else if (c > 0)
      l = idx + 1;
    else
      return (void *)p;
  }
  return NULL;
}
