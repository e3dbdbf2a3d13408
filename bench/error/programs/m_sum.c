/*
 * m_sum.c -- FPGen (seed 002, Guo & Rubio-Gonzalez, ICSE 2020) benchmark
 * "sum", a Meschach-style vector routine (Section 4: "The routine sum adds
 * the elements of a vector").  Table 2: vector(4).
 *
 * Function: double prog(const double *x)
 * Inputs:   x[0..4), doubles.  The seed generates FLOAT values in
 *           [-100, 100].
 * Output:   the return value, x[0] + x[1] + x[2] + x[3] added left to right
 *           into an accumulator that starts at 0.
 * FPGen's injection site: the accumulator update s = s + x[i].
 *
 * Seed Table 3 (maximum relative error, number of inputs, time; 2 h budget):
 *   FPGen       1.0000e+00    43055  02:00:00
 *   Random      0.0000e+00   542842  02:00:00
 *   S3FP        0.0000e+00   550353  02:00:00
 *   KLEE-Float  0.0000e+00        1  <=00:00:01
 * Table 2 (symbolized/concretized inputs): initial 4/0, final 4/0.
 */
#define N 4

double prog(const double *x)
{
    double s = 0.0;
    int i;

    /* Core loop. */
    for (i = 0; i < N; i++)
        s = s + x[i];

    return s;
}
