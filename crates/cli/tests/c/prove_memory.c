// A first-order filter whose state is a struct updated through a pointer,
// with the last inputs kept in a local array: bounded for bounded inputs.
// With -DUNSTABLE the feedback exceeds 1 and the output passes 1.5 after
// five inputs of 1.
extern double __VERIFIER_nondet_double(void);
extern int __VERIFIER_nondet_int(void);
void reach_error(void) {}

#ifdef UNSTABLE
#define FEEDBACK 1.25
#else
#define FEEDBACK 0.75
#endif

struct filter { double y; int n; };

static void step(struct filter *f, const double *in) {
  f->y = FEEDBACK * f->y + 0.125 * (in[0] + in[1]);
  f->n++;
}

int main(void) {
  struct filter f = {0.0, 0};
  double last[2] = {0.0, 0.0};
  while (__VERIFIER_nondet_int()) {
    double x = __VERIFIER_nondet_double();
    if (!(x >= -1.0 && x <= 1.0)) continue;
    last[1] = last[0];
    last[0] = x;
    step(&f, last);
    if (f.y > 1.5) reach_error();
  }
  return 0;
}
