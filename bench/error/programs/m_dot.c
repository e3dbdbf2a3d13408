/*
 * m_dot.c -- FPGen (seed 002, Guo & Rubio-Gonzalez, ICSE 2020) benchmark
 * "dot", a Meschach-style vector routine (Section 4: dot product of two
 * vectors).  Table 2: 2 vectors(4).
 *
 * Function: double prog(const double *x, const double *y)
 * Inputs:   x[0..4) and y[0..4), doubles.  The seed generates FLOAT values
 *           in [-100, 100].
 * Output:   the return value, sum of x[i] * y[i] for i = 0..3, added left to
 *           right into an accumulator that starts at 0.
 * FPGen's injection site: the accumulator update s = s + x[i] * y[i].
 *
 * Seed Table 3 (maximum relative error, number of inputs, time; 2 h budget):
 *   FPGen       1.9190e-04    43649  02:00:00
 *   Random      1.7010e-12   587409  02:00:00
 *   S3FP        5.5831e-10   541171  02:00:00
 *   KLEE-Float  0.0000e+00        1  <=00:00:01
 * Table 2 (symbolized/concretized inputs): initial 4/4, final 2/6 (one
 * vector symbolic, the other concrete, at first).
 */
#define N 4

double prog(const double *x, const double *y)
{
    double s = 0.0;
    int i;

    /* Core loop. */
    for (i = 0; i < N; i++)
        s = s + x[i] * y[i];

    return s;
}
