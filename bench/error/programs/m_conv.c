/*
 * m_conv.c -- FPGen (seed 002, Guo & Rubio-Gonzalez, ICSE 2020) benchmark
 * "convolution", a Meschach-style vector routine (Section 4: convolution
 * product of two vectors).  Table 2: 2 vectors(4).
 *
 * Function: void prog(const double *x, const double *y, double *out)
 * Inputs:   x[0..4) and y[0..4), doubles.  The seed generates FLOAT values
 *           in [-100, 100].
 * Output:   written through out: out[0..7) (2*4 - 1 = 7 elements), the full
 *           discrete convolution out[k] = sum over i + j = k of x[i]*y[j].
 *           out is cleared first, then for i = 0..3 the row x[i]*y[0..4) is
 *           added into out[i..i+4) (Meschach's way: one scaled copy of a
 *           vector added per element of the other), so each out[k]
 *           accumulates its products in increasing i.
 *           Returns nothing.  With a single --array-len for every pointer
 *           parameter, run it with --array-len 7: x and y then have 7
 *           elements of which only the first 4 are read.
 *           out[3] is the element with the most operations (4 products;
 *           the element S3FP's methodology would measure, footnote 13 of
 *           the seed); the seed reports the maximum relative error over all
 *           7 elements.
 * FPGen's injection site: the accumulator update out[i+j] += x[i] * y[j].
 *
 * Seed Table 3 (maximum relative error, number of inputs, time; 2 h budget):
 *   FPGen       2.0446e-04    42099  02:00:00
 *   Random      9.2803e-13   561780  02:00:00
 *   S3FP        1.9864e-10   529503  02:00:00
 *   KLEE-Float  0.0000e+00        1  <=00:00:01
 * Table 2 (symbolized/concretized inputs): initial 4/4, final 2/6.
 */
#define N 4
#define NOUT (2 * N - 1)

void prog(const double *x, const double *y, double *out)
{
    int i, j;

    for (i = 0; i < NOUT; i++)
        out[i] = 0.0;

    /* Core loop. */
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++)
            out[i + j] = out[i + j] + x[i] * y[j];
}
