/*
 * m_qr.c -- FPGen (seed 002, Guo & Rubio-Gonzalez, ICSE 2020) benchmark
 * "QR", a Meschach-style routine (Section 4: "LU and QR factor a matrix to
 * different forms").  Table 2: matrix(4 x 4).
 *
 * Algorithm: Householder QR factorisation, in place, in Meschach's style.
 * For each column k = 0..3 (min(m, n) steps; the last, on a single entry,
 * only fixes the sign of R[3][3]), with x = A[k..4)[k]:
 *   norm  = sqrt(sum of x[i]^2)  (accumulated in increasing i);
 *   a column with norm 0 is left as it is (H = I);
 *   alpha = -norm if x[0] > 0, else +norm  (the sign that avoids
 *           cancellation in v[0]);
 *   v     = x - alpha e1 (only v[0] = x[0] - alpha differs from x);
 *   beta  = 1 / (norm * (norm + |x[0]|))  (= 2 / v'v);
 *   each later column c = A[k..4)[j], j > k, becomes c - beta (v'c) v;
 *   A[k][k] = alpha.
 * Afterwards R is on and above the diagonal and the part of each
 * Householder vector below the diagonal, v[1..), stays below it (Meschach
 * keeps the leading components v[0] in a separate vector; this benchmark
 * does not output them).
 *
 * Function: void prog(const double *a, double *out)
 * Inputs:   a[0..16), the 4 x 4 matrix A in row-major order (A[i][j] is
 *           a[4*i + j]); doubles.  The seed generates FLOAT values in
 *           [-100, 100].
 * Output:   written through out: out[0..16), the factored matrix in the
 *           compact row-major form above (R on and above the diagonal,
 *           Householder vectors below).  Returns nothing.  Run with
 *           --array-len 16.
 *           out[15] (R[3][3]) is the element with the most operations (the
 *           one S3FP's methodology would measure, seed footnote 13); the
 *           seed reports the maximum relative error over all 16 elements.
 * FPGen's injection site: the column updates out[...] = out[...] - s * v[i]
 *           of the core loop (s = beta v'c).
 *
 * Seed Table 3 (maximum relative error, number of inputs, time; 2 h budget):
 *   FPGen       2.5912e-14    40944  02:00:00
 *   Random      0.0000e+00   551384  02:00:00
 *   S3FP        0.0000e+00   502424  02:00:00
 *   KLEE-Float  0.0000e+00       24  02:24:51
 * Table 2 (symbolized/concretized inputs): initial 8/8, final 4/12.
 */
#include <math.h>

#define N 4

void prog(const double *a, double *out)
{
    int i, j, k;
    double ss, norm, x0, alpha, beta, v0, s;

    for (i = 0; i < N * N; i++)
        out[i] = a[i];

    for (k = 0; k < N; k++) {
        ss = 0.0;
        for (i = k; i < N; i++)
            ss = ss + out[N * i + k] * out[N * i + k];
        norm = sqrt(ss);
        if (norm == 0.0)
            continue; /* zero column: the reflection is the identity */

        x0 = out[N * k + k];
        alpha = (x0 > 0.0) ? -norm : norm;
        beta = 1.0 / (norm * (norm + fabs(x0)));
        v0 = x0 - alpha;

        /* Core loop: apply I - beta v v' to the remaining columns. */
        for (j = k + 1; j < N; j++) {
            s = v0 * out[N * k + j];
            for (i = k + 1; i < N; i++)
                s = s + out[N * i + k] * out[N * i + j];
            s = beta * s;
            out[N * k + j] = out[N * k + j] - s * v0;
            for (i = k + 1; i < N; i++)
                out[N * i + j] = out[N * i + j] - s * out[N * i + k];
        }
        out[N * k + k] = alpha;
    }
}
