// --function f: a struct of two floats comes as <2 x float>, one of three
// doubles and one holding a long double come byval; replay passes each the
// way the x86-64 ABI does.
extern void reach_error(void);
struct pt { float x, y; };
struct big { double a, b, c; };
struct ld { long double v; };
double f(struct pt p, struct big b, struct ld l, int k) {
  if (p.x > 1.0f && b.c == 2.0 && l.v < 0 && k == 3)
    reach_error();
  return p.y + b.a;
}
