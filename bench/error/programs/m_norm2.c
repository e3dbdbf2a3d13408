/*
 * m_norm2.c -- FPGen (seed 002, Guo & Rubio-Gonzalez, ICSE 2020) benchmark
 * "2-norm", a Meschach-style vector routine (Section 4: Euclidean norm of a
 * vector, unscaled).  Table 2: vector(4).
 *
 * Function: double prog(const double *x)
 * Inputs:   x[0..4), doubles.  The seed generates FLOAT values in
 *           [-100, 100].
 * Output:   the return value, sqrt(x[0]^2 + x[1]^2 + x[2]^2 + x[3]^2), the
 *           squares added left to right into an accumulator that starts
 *           at 0.
 * FPGen's injection site: the accumulator update s = s + x[i] * x[i].
 *
 * Seed Table 3 (maximum relative error, number of inputs, time; 2 h budget):
 *   FPGen       2.2117e-16    41039  02:00:00
 *   Random      3.1216e-16   544735  02:00:00
 *   S3FP        3.1170e-16   542879  02:00:00
 *   KLEE-Float  0.0000e+00        1  <=00:00:01
 * Table 2 (symbolized/concretized inputs): initial 4/0, final 4/0.
 */
#include <math.h>

#define N 4

double prog(const double *x)
{
    double s = 0.0;
    int i;

    /* Core loop. */
    for (i = 0; i < N; i++)
        s = s + x[i] * x[i];

    return sqrt(s);
}
