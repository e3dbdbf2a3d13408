/* Sign of a reading, and its square root guarded against negatives. */
#include <math.h>

int sign_of(double x) {
    if (x < 0)
        return -1;
    if (x > 0)
        return 1;
    if (x == 0)
        return 0;
    return 2; /* only a NaN gets here */
}

double safe_sqrt_of_square(double x) {
    double y = x * x;
    if (y < 0)
        return -1.0; /* a square is never negative */
    return sqrt(y);
}
