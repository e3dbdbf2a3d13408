/* A small numerical library: the kind of code fpsym is run on. */
#include <math.h>

/* Euclidean norm of (x, y). */
double norm2(double x, double y) {
    return sqrt(x * x + y * y);
}

/* Relative difference of a measured value to a reference one. */
double rel_diff(double measured, double reference) {
    return (measured - reference) / reference;
}

/* A ratio in [0, 1] as a whole percentage. */
int to_percent(double ratio) {
    return (int)(ratio * 100.0);
}

/* Mean of n samples. */
double mean(const double *x, int n) {
    double sum = 0.0;
    for (int i = 0; i < n; i++)
        sum += x[i];
    return sum / n;
}
