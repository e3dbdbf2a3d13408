/* fpsym/svcomp.h: the SV-COMP verifier functions fpsym executes.
 * Not included implicitly; SV-COMP programs usually declare these
 * themselves, and these declarations are compatible with theirs. */
#ifndef FPSYM_SVCOMP_H
#define FPSYM_SVCOMP_H

#ifdef __cplusplus
extern "C" {
#endif

/* Fresh symbolic values. */
_Bool __VERIFIER_nondet_bool(void);
char __VERIFIER_nondet_char(void);
unsigned char __VERIFIER_nondet_uchar(void);
short __VERIFIER_nondet_short(void);
unsigned short __VERIFIER_nondet_ushort(void);
int __VERIFIER_nondet_int(void);
unsigned int __VERIFIER_nondet_uint(void);
long __VERIFIER_nondet_long(void);
unsigned long __VERIFIER_nondet_ulong(void);
long long __VERIFIER_nondet_longlong(void);
unsigned long long __VERIFIER_nondet_ulonglong(void);
float __VERIFIER_nondet_float(void);
double __VERIFIER_nondet_double(void);

/* Constrain the current path: paths where cond is 0 are dropped. */
void __VERIFIER_assume(int cond);

/* Reaching either of these is the property violation. */
void __VERIFIER_error(void) __attribute__((__noreturn__));
void reach_error(void);

#ifdef __cplusplus
}
#endif

#endif /* FPSYM_SVCOMP_H */
