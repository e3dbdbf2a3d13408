/* The larger root of a x^2 + b x + c = 0, by the school formula. */
#include <math.h>

double larger_root(double a, double b, double c) {
    double d = b * b - 4.0 * a * c;
    return (-b + sqrt(d)) / (2.0 * a);
}
