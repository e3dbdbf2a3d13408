/*
 * sum_kahan.c -- FPGen (seed 002, Guo & Rubio-Gonzalez, ICSE 2020)
 * benchmark "Compensated Summation (32)".
 *
 * Described in the seed's Section 2, Figure 1(c): the array is summed from
 * the last element to the first like recursive summation, carrying a
 * correction term e (initially 0) that holds the rounding error of the
 * previous addition and is added to the next term:
 *     sum = A[i]; a = A[i-1] + e; A[i-1] = sum + a; e = (sum - A[i-1]) + a;
 * The result is A[0]; as in the seed, the correction left after the last
 * addition is not added to it.  Table 2 gives the input as array(32).
 *
 * Function: double prog(const double *x)
 * Inputs:   x[0..32), doubles.  The seed generates FLOAT values in
 *           [-100, 100].
 * Output:   the return value (the sum).  The input array is not modified:
 *           the algorithm runs in place on a local copy.
 * FPGen's injection site: the addition a[i-1] = sum + t of the core loop
 *           (the update of the running sum).
 *
 * Seed Table 3 (maximum relative error, number of inputs, time; 2 h budget):
 *   FPGen       1.0000e+00      547  02:00:00
 *   Random      0.0000e+00   533939  02:00:00
 *   S3FP        0.0000e+00   550118  02:00:00
 *   KLEE-Float  0.0000e+00        1  <=00:00:01
 * Table 2 (symbolized/concretized inputs): initial 16/16, final 16/16.
 *
 * Hand-crafted input (seed Table 1b, size 4): A[0] = 1.1e-15, A[1] = 98.0,
 * A[2] = -1.2e-15, A[3] = -98.0.  The correction -1.2e-15 captured by the
 * first addition is lost when added to 98.0, then 98 and -98 cancel; the
 * result 1.1e-15 against about -1e-16 exactly is a relative error of 12
 * (Table 1a, "Manual").  With N = 32, those values in x[0..4) and zeros
 * elsewhere give the same result.
 */
#define N 32

double prog(const double *x)
{
    double a[N];
    double sum, t, e = 0.0;
    int i;

    for (i = 0; i < N; i++)
        a[i] = x[i];

    /* Core loop: compensated addition, last element to first. */
    for (i = N - 1; i > 0; i--) {
        sum = a[i];
        t = a[i - 1] + e;
        a[i - 1] = sum + t;
        e = (sum - a[i - 1]) + t;
    }

    return a[0];
}
