/*
 * m_norm1.c -- FPGen (seed 002, Guo & Rubio-Gonzalez, ICSE 2020) benchmark
 * "1-norm", a Meschach-style vector routine (Section 4: 1-norm of a
 * vector, unscaled).  Table 2: vector(4).
 *
 * Function: double prog(const double *x)
 * Inputs:   x[0..4), doubles.  The seed generates FLOAT values in
 *           [-100, 100].
 * Output:   the return value, |x[0]| + |x[1]| + |x[2]| + |x[3]| added left
 *           to right into an accumulator that starts at 0.
 * FPGen's injection site: the accumulator update s = s + fabs(x[i]).
 *
 * Seed Table 3 (maximum relative error, number of inputs, time; 2 h budget):
 *   FPGen       0.0000e+00    41690  02:00:00
 *   Random      0.0000e+00   550180  02:00:00
 *   S3FP        0.0000e+00   549360  02:00:00
 *   KLEE-Float  0.0000e+00        1  <=00:00:01
 * The only one of the 21 programs where FPGen exposed no error (all terms
 * have the same sign: no cancellation can amplify the rounding errors).
 * Table 2 (symbolized/concretized inputs): initial 4/0, final 2/2.
 */
#include <math.h>

#define N 4

double prog(const double *x)
{
    double s = 0.0;
    int i;

    /* Core loop. */
    for (i = 0; i < N; i++)
        s = s + fabs(x[i]);

    return s;
}
