/* A long concrete loop: integer and floating-point arithmetic, loads and
   stores, a call and a switch per iteration. N is set with -DN=... */
#ifndef N
#define N 200000
#endif
static double step(double x, int i) { return x * 0.999 + (double)(i % 7); }

int main(void) {
  double acc = 0.0;
  long s = 0;
  int a[16] = {0};
  for (int i = 0; i < N; i++) {
    acc = step(acc, i);
    a[i & 15] += i;
    s += a[(i * 7) & 15] % 13;
    switch (i & 7) {
    case 0: s += 1; break;
    case 1: s ^= 3; break;
    case 2: s += i; break;
    case 3: s -= 2; break;
    case 5: s += a[3]; break;
    case 6: s *= 1; break;
    default: break;
    }
  }
  return (int)(s + (long)acc) & 1;
}
