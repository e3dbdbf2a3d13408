/*
 * m_lu.c -- FPGen (seed 002, Guo & Rubio-Gonzalez, ICSE 2020) benchmark
 * "LU", a Meschach-style routine (Section 4: "LU and QR factor a matrix to
 * different forms").  Table 2: matrix(4 x 4).
 *
 * Algorithm: LU factorisation by Gaussian elimination with partial
 * pivoting, in place, in Meschach's style: for each column k, the row with
 * the largest |A[i][k]| (i >= k; the first such row on ties) is swapped
 * (whole rows) with row k; a column whose candidates are all zero is
 * skipped; then for every row i > k the multiplier l = A[i][k] / A[k][k] is
 * stored in A[i][k] and l times row k is subtracted from A[i][k+1..4).
 * The result satisfies P A = L U with L unit lower triangular.
 *
 * Function: void prog(const double *a, double *out)
 * Inputs:   a[0..16), the 4 x 4 matrix A in row-major order (A[i][j] is
 *           a[4*i + j]); doubles.  The seed generates FLOAT values in
 *           [-100, 100].
 * Output:   written through out: out[0..16), the factored matrix in compact
 *           row-major form, U on and above the diagonal and the multipliers
 *           of L (unit diagonal not stored) below it, rows in pivoted order.
 *           The permutation itself is kept local and not output.  Returns
 *           nothing.  Run with --array-len 16.
 *           out[15] (U[3][3]) is the element with the most operations (the
 *           one S3FP's methodology would measure, seed footnote 13); the
 *           seed reports the maximum relative error over all 16 elements.
 * FPGen's injection site: the elimination update
 *           out[4*i+j] = out[4*i+j] - l * out[4*k+j].
 *
 * Seed Table 3 (maximum relative error, number of inputs, time; 2 h budget):
 *   FPGen       2.7327e+00    40831  02:00:00
 *   Random      0.0000e+00   544796  02:00:00
 *   S3FP        0.0000e+00   543181  02:00:00
 *   KLEE-Float  0.0000e+00        9  00:01:20
 * Table 2 (symbolized/concretized inputs): initial 8/8, final 8/8.
 */
#include <math.h>

#define N 4

void prog(const double *a, double *out)
{
    int i, j, k, p;
    double big, t, l;

    for (i = 0; i < N * N; i++)
        out[i] = a[i];

    for (k = 0; k < N; k++) {
        /* Partial pivoting: the largest candidate in column k. */
        big = 0.0;
        p = k;
        for (i = k; i < N; i++) {
            t = fabs(out[N * i + k]);
            if (t > big) {
                big = t;
                p = i;
            }
        }
        if (big == 0.0)
            continue; /* nothing to eliminate in this column */

        if (p != k)
            for (j = 0; j < N; j++) {
                t = out[N * k + j];
                out[N * k + j] = out[N * p + j];
                out[N * p + j] = t;
            }

        /* Core loop: eliminate below the pivot. */
        for (i = k + 1; i < N; i++) {
            l = out[N * i + k] / out[N * k + k];
            out[N * i + k] = l;
            for (j = k + 1; j < N; j++)
                out[N * i + j] = out[N * i + j] - l * out[N * k + j];
        }
    }
}
