double util_scale(double x);
