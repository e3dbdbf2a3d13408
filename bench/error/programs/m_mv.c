/*
 * m_mv.c -- FPGen (seed 002, Guo & Rubio-Gonzalez, ICSE 2020) benchmark
 * "MV", a Meschach-style routine (Section 4: "MV multiplies a matrix by a
 * vector").  Table 2: vector(4), matrix(4 x 4).
 *
 * Function: void prog(const double *a, const double *x, double *out)
 * Inputs:   a[0..16), the 4 x 4 matrix A in row-major order (A[i][j] is
 *           a[4*i + j]), and x[0..4), the vector; doubles.  The seed
 *           generates FLOAT values in [-100, 100].
 * Output:   written through out: out[0..4) = A x, each out[i] the dot
 *           product of row i with x, added left to right (j = 0..3) into an
 *           accumulator that starts at 0.  Returns nothing.
 *           With a single --array-len for every pointer parameter, run it
 *           with --array-len 16: x and out then have 16 elements of which
 *           only the first 4 are used.
 *           All four outputs take the same number of operations, so S3FP's
 *           methodology (seed footnote 13) measures out[0]; the seed reports
 *           the maximum relative error over all 4 elements.
 * FPGen's injection site: the accumulator update s = s + a[4*i+j] * x[j].
 *
 * Seed Table 3 (maximum relative error, number of inputs, time; 2 h budget):
 *   FPGen       8.9366e-04    41180  02:00:00
 *   Random      0.0000e+00   562187  02:00:00
 *   S3FP        0.0000e+00   559708  02:00:00
 *   KLEE-Float  0.0000e+00        1  <=00:00:01
 * Table 2 (symbolized/concretized inputs): initial 4/16, final 2/18.
 */
#define N 4

void prog(const double *a, const double *x, double *out)
{
    int i, j;

    for (i = 0; i < N; i++) {
        double s = 0.0;
        /* Core loop. */
        for (j = 0; j < N; j++)
            s = s + a[N * i + j] * x[j];
        out[i] = s;
    }
}
