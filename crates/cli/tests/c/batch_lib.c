/* A small library for `fpsym batch`: one function per outcome. */
#include "batch_util.h"

/* A quotient: divides by zero, overflows, underflows, 0/0 is invalid. */
double ratio(double a, double b) { return a / b; }

/* Integers only: nothing to raise (verified). */
int mix(int a, int b) { return (a & 0xff) + (b & 0xff); }

/* Halving: underflows on subnormals. */
double half(double x) { return x * 0.5; }

/* Never ends for a finite x: reaches any time limit. */
double spin(double x) {
    while (x == x) {
        x = x * 0.5 + 1.0;
    }
    return x;
}

/* Static: not analysed on its own. */
static double twice(double x) { return x + x; }

/* Calls into the second file. */
double scaled(double x) { return twice(util_scale(x)); }
