#include <klee/klee.h>
typedef int v4si __attribute__((vector_size(16)));
int main(void) {
  int y; klee_make_symbolic(&y, sizeof y, "y");
  v4si a = {100, 200, 300, 400}, b = {1, 2, y, 4};
  v4si c = a / b;
  return c[0] == 100 ? 0 : 1;
}
// expect-finding: division-by-zero 6
