/* (x + y) - x is y over the reals; in double, a small y is absorbed by a
   large x and the result is 0 or a multiple of x's ulp: relative error up
   to 1. Random inputs in [-100, 100] almost never make y small enough. */
double absorb(double x, double y) { return (x + y) - x; }
