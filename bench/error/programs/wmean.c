/*
 * wmean.c -- FPGen (seed 002, Guo & Rubio-Gonzalez, ICSE 2020) benchmark
 * "wmean", in the style of GSL's gsl_stats_wmean: the weighted mean of the
 * samples.  Table 2: 2 arrays(4).
 *
 * Function: double prog(const double *w, const double *x)
 * Inputs:   w[0..4), the weights, and x[0..4), the samples; doubles.  The
 *           seed generates FLOAT values in [-100, 100] for both.  As in GSL,
 *           a sample whose weight is not positive (w[i] <= 0) is skipped.
 *           All accumulators are double (the seed, footnote 11, changed
 *           GSL's long double accumulators to double).
 * Output:   the return value, sum w[i] x[i] / sum w[i] computed by the
 *           running update W += w[i]; m += (x[i] - m) * (w[i] / W) (0 when
 *           no weight is positive).
 * FPGen's injection site: the accumulator update of m.
 *
 * Seed Table 3 (maximum relative error, number of inputs, time; 2 h budget):
 *   FPGen       1.0000e+00  89844  02:00:00
 *   Random      9.4290e-12  526315  02:00:00
 *   S3FP        1.6620e-07  526118  02:00:00
 *   KLEE-Float  0.0000e+00  1  <=00:00:01
 * Table 2 (symbolized/concretized inputs): initial 4/4, final 4/4.
 */
#define N 4

double prog(const double *w, const double *x)
{
    double W = 0.0, m = 0.0;
    int i;

    /* Core loop. */
    for (i = 0; i < N; i++) {
        double wi = w[i];
        if (wi > 0.0) {
            W = W + wi;
            m = m + (x[i] - m) * (wi / W);
        }
    }
    return m;
}
