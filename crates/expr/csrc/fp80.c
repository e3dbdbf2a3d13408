/* fpsym: calls glibc's x87 `long double` functions (sinl, powl, ...) for
 * crates/expr/src/libm.rs. Rust has no 80-bit type, so the operands and the
 * result cross as their 10-byte x87 encodings (little-endian, in 16-byte
 * buffers); the call itself happens here, with `long double` on both sides
 * of it. The rounding mode and errno are set and read by the Rust caller
 * around this call (fesetround sets the x87 control word too). */
#include <string.h>

typedef long double (*fpsym_ld1)(long double);
typedef long double (*fpsym_ld2)(long double, long double);

/* `out = f(x)` (arity 1) or `out = f(x, y)` (arity 2); `f` is the address
 * of glibc's function (dlsym of libm.so.6 by the caller). */
void fpsym_fp80_call(const void *f, unsigned arity, const unsigned char *x, const unsigned char *y,
                     unsigned char *out) {
  long double a, b, r;
  memset(&a, 0, sizeof a);
  memset(&b, 0, sizeof b);
  memcpy(&a, x, 10);
  if (arity == 2) {
    memcpy(&b, y, 10);
    r = ((fpsym_ld2)f)(a, b);
  } else {
    r = ((fpsym_ld1)f)(a);
  }
  memset(out, 0, 16);
  memcpy(out, &r, 10);
}
