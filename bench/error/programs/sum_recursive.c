/*
 * sum_recursive.c -- FPGen (seed 002, Guo & Rubio-Gonzalez, ICSE 2020)
 * benchmark "Recursive Summation (32)".
 *
 * Described in the seed's Section 2, Figure 1(a): the elements of a double
 * array are added one by one from the last to the first (A[i-1] += A[i] for
 * i = size-1 down to 1) and the result is A[0].  The seed's Table 2 gives the
 * input as array(32).
 *
 * Function: double prog(const double *x)
 * Inputs:   x[0..32), doubles.  The seed generates FLOAT values in
 *           [-100, 100] (to compare with S3FP, which works on floats).
 * Output:   the return value (the sum).  The input array is not modified:
 *           the algorithm runs in place on a local copy.
 * FPGen's injection site: the addition in the core loop that updates the
 *           accumulator, a[i-1] = a[i-1] + a[i].
 *
 * Seed Table 3 (maximum relative error, number of inputs, time; 2 h budget):
 *   FPGen       1.0000e+00     9472  02:00:00
 *   Random      0.0000e+00   583704  02:00:00
 *   S3FP        0.0000e+00   577227  02:00:00
 *   KLEE-Float  0.0000e+00        1  <=00:00:01
 * Table 2 (symbolized/concretized inputs): initial 16/16, final 16/16.
 *
 * Hand-crafted input (seed Table 1b, an array of size 4; Section 2.2):
 *   A[0] = 1.1e-15, A[1] = 98.0, A[2] = -1.2e-15, A[3] = -98.0
 * In double the sum is 1.1e-15 (A[2] is absorbed by A[3], then 98 and -98
 * cancel), the quadruple-precision sum is about -1e-16: relative error 12
 * (seed Table 1a, "Manual").  Here, with N = 32, the same four values in
 * x[0..4) and zeros in x[4..32) give the same result and error.
 */
#define N 32

double prog(const double *x)
{
    double a[N];
    int i;

    for (i = 0; i < N; i++)
        a[i] = x[i];

    /* Core loop: add each element to its predecessor, last to first. */
    for (i = N - 1; i > 0; i--)
        a[i - 1] = a[i - 1] + a[i];

    return a[0];
}
