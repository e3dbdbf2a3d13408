/* 128-bit constants beyond 64 bits: llvm-ir keeps only their low 64 bits
   (2^64 + 5 would read as 5, -2^65 as 0), which made both lines below
   "infeasible". Both are reachable: x = 101 and x = -1. */
int f(long long x) {
  __int128 v = (__int128)x * 3;
  __int128 big = ((__int128)1 << 64) + 5;
  __int128 neg = -((__int128)1 << 65);
  if (x > 100 && v < big)
    return 1;
  if (x < 0 && v > neg)
    return 2;
  return 0;
}
