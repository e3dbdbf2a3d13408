/* klee/klee.h as shipped by fpsym: the part of KLEE's interface fpsym
 * executes, so programs written for KLEE compile unchanged. */
#ifndef FPSYM_KLEE_H
#define FPSYM_KLEE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Make the nbytes bytes at addr symbolic; name labels them in tests. */
void klee_make_symbolic(void *addr, size_t nbytes, const char *name);

/* Constrain the current path: paths where condition is false are dropped. */
void klee_assume(uintptr_t condition);

/* A symbolic int in [begin, end). */
int klee_range(int begin, int end, const char *name);

/* A fresh symbolic int. */
int klee_int(const char *name);

/* End the current path without reporting anything. */
void klee_silent_exit(int status) __attribute__((noreturn));

/* End the current path and report it as an error. */
void klee_abort(void) __attribute__((noreturn));

/* End the current path, reporting message as an error at file:line. */
void klee_report_error(const char *file, int line, const char *message,
                       const char *suffix) __attribute__((noreturn));

/* KLEE's assertion macro: fails like assert() from <assert.h>. */
void __assert_fail(const char *assertion, const char *file, unsigned int line,
                   const char *function) __attribute__((noreturn));
#define klee_assert(expr)                                                     \
  ((expr) ? (void)(0)                                                         \
          : __assert_fail(#expr, __FILE__, __LINE__, __PRETTY_FUNCTION__))

#ifdef __cplusplus
}
#endif

#endif /* FPSYM_KLEE_H */
