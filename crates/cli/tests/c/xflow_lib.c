/* A library routine, given to fpsym as LLVM bitcode: not the user's code. */
double lib_square(double x) { return x * x; }
int lib_trunc(double x) { return (int)x; }
