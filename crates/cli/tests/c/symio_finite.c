/* --finite-inputs: a bug only a NaN or an infinite input reaches is gone
 * with it; a bug a finite input reaches is still found. */
#include <assert.h>

/* Only NaN is unequal to itself. */
void only_nan(double x) {
  if (x != x)
    assert(0 && "NaN input");
}

/* Only an infinity is above the largest float. */
void only_inf(float x) {
  if (x > 3.4028235e38f)
    assert(0 && "infinite input");
}

/* Finite inputs reach this one. */
void finite_bug(double x, float y) {
  if (x > 1e300 && y < -1e30f)
    assert(0 && "large finite inputs");
}

/* The elements of an array parameter (--array-len 2) are inputs too. */
void array_nan(double *p) {
  if (p[1] != p[1])
    assert(0 && "NaN element");
}

struct pt {
  float x, y;
};

/* So are the members of a struct passed by value. */
void struct_inf(struct pt p) {
  if (p.y - p.y != 0.0f)
    assert(0 && "NaN or infinite member");
}
