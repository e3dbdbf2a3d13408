#include <complex.h>
#include <klee/klee.h>
extern void reach_error(void);
struct pt { float x, y; };
typedef float v4f __attribute__((vector_size(16)));
typedef int v4i __attribute__((vector_size(16)));

static struct pt mid(struct pt a, struct pt b) {
  struct pt r = {(a.x + b.x) / 2, (a.y + b.y) / 2};
  return r;
}

static float complex shift(float complex z, float d) { return z + d * I; }

int main(void) {
  float x, y;
  klee_make_symbolic(&x, sizeof x, "x");
  klee_make_symbolic(&y, sizeof y, "y");
  struct pt p = {x, y}, q = {1.0f, 3.0f};
  struct pt m = mid(p, q);
  float complex z = shift(x + y * I, 1.0f);
  v4f v = {x, y, 1.0f, 2.0f};
  v4f w = v + v + (v4f){0.5f, 0.5f, 0.5f, 0.5f};
  v4f s = __builtin_shufflevector(w, v, 1, 0, 5, 6);
  v4i lt = w > s;
  int k = klee_range(0, 4, "k");
  if (m.x == 2.0f && cimagf(z) == 4.5f)
    reach_error(); /* x = 3, y = 3.5 */
  if (s[k] == 1.0f && lt[1])
    return 2;
  return 0;
}
// expect-finding: reach-error 28
// expect-paths: 7
// clang passes struct pt and float complex as <2 x float>; v4f is a
// vector-extension type (insertelement, shufflevector, extractelement
// at a symbolic index, a vector compare).
