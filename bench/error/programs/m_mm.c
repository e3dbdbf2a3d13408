/*
 * m_mm.c -- FPGen (seed 002, Guo & Rubio-Gonzalez, ICSE 2020) benchmark
 * "MM", a Meschach-style routine (Section 4: "MM multiplies two
 * matrices").  Table 2: 2 matrices(4 x 4).
 *
 * Function: void prog(const double *a, const double *b, double *out)
 * Inputs:   a[0..16) and b[0..16), the 4 x 4 matrices A and B in row-major
 *           order (A[i][j] is a[4*i + j]); doubles.  The seed generates
 *           FLOAT values in [-100, 100].
 * Output:   written through out: out[0..16) = A B in row-major order; each
 *           entry C[i][j] = sum over k = 0..3 of A[i][k] * B[k][j], added in
 *           increasing k into an accumulator that starts at 0 (the same
 *           rounding as Meschach's row-by-row accumulation).  Returns
 *           nothing.  Run with --array-len 16.
 *           All 16 outputs take the same number of operations, so S3FP's
 *           methodology (seed footnote 13) measures out[0]; the seed reports
 *           the maximum relative error over all 16 elements.
 * FPGen's injection site: the accumulator update
 *           s = s + a[4*i+k] * b[4*k+j].
 *
 * Seed Table 3 (maximum relative error, number of inputs, time; 2 h budget):
 *   FPGen       2.5783e-14    43965  02:00:00
 *   Random      1.1102e-16   587108  02:00:00
 *   S3FP        1.1102e-16   530526  02:00:00
 *   KLEE-Float  0.0000e+00        1  <=00:00:01
 * Table 2 (symbolized/concretized inputs): initial 8/24, final 8/24.
 */
#define N 4

void prog(const double *a, const double *b, double *out)
{
    int i, j, k;

    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++) {
            double s = 0.0;
            /* Core loop. */
            for (k = 0; k < N; k++)
                s = s + a[N * i + k] * b[N * k + j];
            out[N * i + j] = s;
        }
}
