/* Functions reading a different number of elements behind their pointer,
 * for `fpsym batch` with a per-function --array-len. */

/* Reads x[0], x[1], x[2]: out of bounds with fewer than 3 elements. */
double sum3(const double *x) { return x[0] + x[1] + x[2]; }

/* Reads x[0] only. */
double first(const double *x) { return x[0]; }
