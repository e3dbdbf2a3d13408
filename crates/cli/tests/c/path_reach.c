/* Lines to reach and paths to take (fpsym path). */
#include <math.h>

static double twice(double x)
{
    return x + x;
}

int classify(double x, double y)
{
    if (x > 1.0) {
        if (x < 0.5)
            return 1; /* unreachable: x > 1 and x < 0.5 */
        if (x * x < 0.0)
            return 2; /* unreachable: a square is never negative (or NaN) */
    }
    if (twice(y) + 1.0 == twice(y))
        return 3; /* reachable: y large enough to absorb 1 */
    if (x != x)
        return 4; /* reachable: x is NaN */
    return 0;
}
