// --function entries with parameters whose C type matters: --range bounds
// compare as the type says (unsigned, _Bool, signed char) and are refused
// outside it; a function-pointer parameter is an input like any pointer; a
// narrow signed result is replayed exactly, not modulo 256.
extern void reach_error(void);

int h(unsigned u, signed char c, _Bool b, int (*cb)(int)) {
  if (u > 4000000000u && c == -100 && b)
    reach_error();
  return cb ? 1 : 0;
}

signed char r(int x) {
  if (x < 0)
    return -5;
  return 3;
}
