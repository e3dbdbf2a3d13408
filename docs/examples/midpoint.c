#include <assert.h>

double midpoint(double a, double b) {
    double m = (a + b) / 2;
    assert(a > b || (a <= m && m <= b));
    return m;
}
