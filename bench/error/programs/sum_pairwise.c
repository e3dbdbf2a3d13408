/*
 * sum_pairwise.c -- FPGen (seed 002, Guo & Rubio-Gonzalez, ICSE 2020)
 * benchmark "Pairwise Summation (32)".
 *
 * Described in the seed's Section 2, Figure 1(b), which shows it for four
 * values only (a1 += a2; a3 += a4; a1 += a3; footnote 2 says the code for an
 * array of size N is omitted as bulky).  Generalised here to N = 32 (Table 2:
 * array(32)) as a balanced binary tree computed in place: at stride s = 1,
 * 2, 4, ..., a[i] += a[i+s] for i = 0, 2s, 4s, ...; the result is a[0].  For
 * N = 4 this performs exactly the three additions of Figure 1(b).
 *
 * Function: double prog(const double *x)
 * Inputs:   x[0..32), doubles.  The seed generates FLOAT values in
 *           [-100, 100].
 * Output:   the return value (the sum).  The input array is not modified:
 *           the algorithm runs in place on a local copy.
 * FPGen's injection site: the addition a[i] = a[i] + a[i + s] of the core
 *           loop.
 *
 * Seed Table 3 (maximum relative error, number of inputs, time; 2 h budget):
 *   FPGen       1.3174e-16     1532  02:00:00
 *   Random      0.0000e+00   579979  02:00:00
 *   S3FP        0.0000e+00   551594  02:00:00
 *   KLEE-Float  0.0000e+00        1  <=00:00:01
 * Table 2 (symbolized/concretized inputs): initial 16/16, final 16/16.
 *
 * Hand-crafted input (seed Table 1b, size 4): A[0] = 1.1e-15, A[1] = 98.0,
 * A[2] = -1.2e-15, A[3] = -98.0.  Pairwise: 1.1e-15 + 98 = 98 and
 * -1.2e-15 + -98 = -98 both round off the small term, then 98 + -98 = 0
 * against an exact sum of about -1e-16: relative error 1 (Table 1a,
 * "Manual").  With N = 32, those values in x[0..4) and zeros elsewhere give
 * the same result.
 */
#define N 32

double prog(const double *x)
{
    double a[N];
    int i, s;

    for (i = 0; i < N; i++)
        a[i] = x[i];

    /* Core loop: combine neighbouring partial sums, level by level. */
    for (s = 1; s < N; s *= 2)
        for (i = 0; i + s < N; i += 2 * s)
            a[i] = a[i] + a[i + s];

    return a[0];
}
