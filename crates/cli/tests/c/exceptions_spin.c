double spin(double x) {
  double y = x * x;
  volatile int forever = 1;
  while (forever) {
  }
  return y;
}
