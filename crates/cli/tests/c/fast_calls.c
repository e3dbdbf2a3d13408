// Calls on the concrete fast path. A callee it enters gets a frame only
// when the executor must run one of the callee's instructions or a chunk
// of the fast path ends inside it: nested and recursive calls that return
// within a chunk, chunks ending at every depth, callees with locals in
// memory (an alloca: the executor's), void calls, a symbolic argument met
// two calls deep, a callee that stores and then meets a symbolic value
// (the store done once, the registers written before kept), and recursion
// past the call depth limit. A run with the fast path and one without
// (--no-fast-path) must agree exactly (tests/run.rs).
// expect-finding: reach-error 57
#include <klee/klee.h>
extern void reach_error(void);

static int leaf(int x) { return x * 3 + 1; }
static int mid(int x, int y) { return leaf(x) ^ leaf(y); }
static int outer(int x) {
  int r = 0;
  for (int i = 0; i < 40; i++) r += mid(x + i, i);
  return r;
}
static long fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
static int with_local(int x) {
  int buf[4];
  for (int i = 0; i < 4; i++) buf[i] = x + i;
  return buf[x & 3];
}
static unsigned g;
static void bump(unsigned v) { g += v; }
static double scale(double d, int k) { return d * 0.5 + k; }
static int deep(int n) { return n == 0 ? 0 : 1 + deep(n - 1); }
static unsigned h;
static int store_then_symbolic(int x, int y) {
  int t = x * 5;
  h += (unsigned)t;
  return y + t;
}

int main(void) {
  int k;
  klee_make_symbolic(&k, sizeof k, "k");
  long s = 0;
  double d = 1.0;
  for (int i = 0; i < 150; i++) {
    s += outer(i);
    s += fib(i % 13);
    s += with_local(i);
    bump((unsigned)i);
    d = scale(d, i & 3);
  }
  if (k == 5)
    return deep(1500); /* past the limit of 1000 calls */
  /* k reaches leaf through two calls: the executor takes over there,
     inside activations the fast path made. */
  int v = mid(k, 7);
  int w = store_then_symbolic(3, k);
  if (w == 115 && h == 15 && v == (leaf(100) ^ leaf(7)) && s != 0 && g != 0 && d > 0.0)
    reach_error();
  return (int)(s & 1);
}
