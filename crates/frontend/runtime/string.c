/* fpsym C runtime: <string.h>. Compiled to bitcode and linked with the
 * program so these functions execute symbolically. Every definition is weak:
 * a program's own definition wins at link time. */
#include <stddef.h>

#define WEAK __attribute__((weak))

WEAK size_t strlen(const char *s) {
  size_t n = 0;
  while (s[n] != '\0')
    n++;
  return n;
}

WEAK size_t strnlen(const char *s, size_t maxlen) {
  size_t n = 0;
  while (n < maxlen && s[n] != '\0')
    n++;
  return n;
}

WEAK int strcmp(const char *a, const char *b) {
  const unsigned char *p = (const unsigned char *)a;
  const unsigned char *q = (const unsigned char *)b;
  while (*p != '\0' && *p == *q) {
    p++;
    q++;
  }
  return (int)*p - (int)*q;
}

WEAK int strncmp(const char *a, const char *b, size_t n) {
  const unsigned char *p = (const unsigned char *)a;
  const unsigned char *q = (const unsigned char *)b;
  for (; n > 0; n--, p++, q++) {
    if (*p != *q)
      return (int)*p - (int)*q;
    if (*p == '\0')
      return 0;
  }
  return 0;
}

WEAK char *strcpy(char *dst, const char *src) {
  char *d = dst;
  while ((*d++ = *src++) != '\0')
    ;
  return dst;
}

WEAK char *strncpy(char *dst, const char *src, size_t n) {
  size_t i = 0;
  for (; i < n && src[i] != '\0'; i++)
    dst[i] = src[i];
  for (; i < n; i++)
    dst[i] = '\0';
  return dst;
}

WEAK char *strcat(char *dst, const char *src) {
  strcpy(dst + strlen(dst), src);
  return dst;
}

WEAK char *strncat(char *dst, const char *src, size_t n) {
  char *d = dst + strlen(dst);
  size_t i = 0;
  for (; i < n && src[i] != '\0'; i++)
    d[i] = src[i];
  d[i] = '\0';
  return dst;
}

WEAK char *strchr(const char *s, int c) {
  char ch = (char)c;
  for (;; s++) {
    if (*s == ch)
      return (char *)s;
    if (*s == '\0')
      return NULL;
  }
}

WEAK char *strrchr(const char *s, int c) {
  char ch = (char)c;
  const char *last = NULL;
  for (;; s++) {
    if (*s == ch)
      last = s;
    if (*s == '\0')
      return (char *)last;
  }
}

WEAK size_t strspn(const char *s, const char *accept) {
  size_t n = 0;
  while (s[n] != '\0' && strchr(accept, s[n]) != NULL)
    n++;
  return n;
}

WEAK size_t strcspn(const char *s, const char *reject) {
  size_t n = 0;
  while (s[n] != '\0' && strchr(reject, s[n]) == NULL)
    n++;
  return n;
}

WEAK char *strpbrk(const char *s, const char *accept) {
  s += strcspn(s, accept);
  return *s != '\0' ? (char *)s : NULL;
}

WEAK char *strstr(const char *haystack, const char *needle) {
  size_t n = strlen(needle);
  if (n == 0)
    return (char *)haystack;
  for (; *haystack != '\0'; haystack++)
    if (*haystack == *needle && strncmp(haystack, needle, n) == 0)
      return (char *)haystack;
  return NULL;
}

WEAK int memcmp(const void *a, const void *b, size_t n) {
  const unsigned char *p = a;
  const unsigned char *q = b;
  for (; n > 0; n--, p++, q++)
    if (*p != *q)
      return (int)*p - (int)*q;
  return 0;
}

WEAK void *memchr(const void *s, int c, size_t n) {
  const unsigned char *p = s;
  for (; n > 0; n--, p++)
    if (*p == (unsigned char)c)
      return (void *)p;
  return NULL;
}

WEAK void *memcpy(void *dst, const void *src, size_t n) {
  unsigned char *d = dst;
  const unsigned char *s = src;
  for (size_t i = 0; i < n; i++)
    d[i] = s[i];
  return dst;
}

WEAK void *memmove(void *dst, const void *src, size_t n) {
  unsigned char *d = dst;
  const unsigned char *s = src;
  if (d < s) {
    for (size_t i = 0; i < n; i++)
      d[i] = s[i];
  } else {
    for (size_t i = n; i > 0; i--)
      d[i - 1] = s[i - 1];
  }
  return dst;
}

WEAK void *memset(void *s, int c, size_t n) {
  unsigned char *p = s;
  for (size_t i = 0; i < n; i++)
    p[i] = (unsigned char)c;
  return s;
}
