// A finding inside a called function whose message is full of markup, for
// the reports' tests (the SARIF code flow from main's call, escaping in
// junit.xml and report.html) and a line no test covers (19).
// expect-finding: assertion-failure 10
#include <assert.h>
#include <klee/klee.h>

static void check(double x) {
  // The assertion's text becomes the finding's message.
  assert(x < 1.0 || !"<&\"'> in a message");
}

int main(void) {
  double x;
  klee_make_symbolic(&x, sizeof x, "x");
  if (x > 2.0)
    check(x);
  if (x != x && x == 1.0)
    return 2; // no input gets here: a line no test covers
  return 0;
}
