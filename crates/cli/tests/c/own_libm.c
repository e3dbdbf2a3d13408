double log(double x) { return x * 0.5; }
double f(double x) { return log(x); }
