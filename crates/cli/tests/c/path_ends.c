/* Targets reached in odd ways (fpsym path). */
#include <stdlib.h>

double g;

/* Runs after the entry function returns (atexit). */
void late(void)
{
    if (g > 1.0)
        g = 2.0; /* line 10: reached from the atexit handler only */
}

int registers(double x)
{
    g = x;
    atexit(late);
    if (x > 0.0)
        return 0;
    return 1;
}

/* The path 25:T ends in a division by zero, not at the return. */
int divides(double x, int k)
{
    if (x > 1.0) {
        k = 0;
        return 10 / k;
    }
    return 0;
}

#define IN(a) ((a) > 0.0 && (a) < 10.0)
int macro(double x)
{
    if (IN(x))
        return 1;
    return 0;
}
