double lib_square(double x);
double twice_square(double x) {
  return lib_square(x) * 2.0;
}
