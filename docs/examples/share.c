/* The share of x in x + y: in real numbers always between 0 and 1. */
double share(double x, double y) {
    return x / (x + y);
}
