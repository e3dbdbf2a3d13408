/* Horizontal range of a projectile launched at speed v (m/s) and angle
   theta (radians) on flat ground. */
#include <math.h>

double range_m(double v, double theta) {
    double r = v * v * sin(2.0 * theta) / 9.81;
    if (r < 0.0)
        return 0.0; /* cannot happen for theta in [0, pi/2]? */
    return r;
}
