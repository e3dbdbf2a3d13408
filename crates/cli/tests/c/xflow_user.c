double lib_square(double x);
double twice_square(double x) {
  return lib_square(x) * 2.0;
}
int lib_trunc(double x);
int trunc_it(double x) { return lib_trunc(x); }
