/*
 * wtss.c -- FPGen (seed 002, Guo & Rubio-Gonzalez, ICSE 2020) benchmark
 * "wtss (wtss-m)", in the style of GSL's gsl_stats_wtss: the weighted total
 * sum of squares about the weighted mean.  Table 2: 2 arrays(4).  The seed
 * (footnote 9) counts wtss-m (given the mean) as a replicate of it; here the
 * mean is computed by the weighted mean, as wtss does.
 *
 * Function: double prog(const double *w, const double *x)
 * Inputs:   w[0..4), the weights, and x[0..4), the samples; doubles.  The
 *           seed generates FLOAT values in [-100, 100] for both.  As in GSL,
 *           a sample whose weight is not positive (w[i] <= 0) is skipped.
 *           All accumulators are double (the seed, footnote 11, changed
 *           GSL's long double accumulators to double).
 * Output:   the return value, sum of w[i] * (x[i] - mean)^2 over the
 *           samples with positive weight, added in increasing i into an
 *           accumulator that starts at 0; mean is the weighted mean.
 * FPGen's injection site: the accumulator update
 *           t = t + w[i] * d * d.
 *
 * Seed Table 3 (maximum relative error, number of inputs, time; 2 h budget):
 *   FPGen       4.4513e-16  89318  02:00:00
 *   Random      5.5294e-16  526324  02:00:00
 *   S3FP        4.7739e-16  526869  02:00:00
 *   KLEE-Float  0.0000e+00  16  00:00:25
 * Table 2 (symbolized/concretized inputs): initial 4/4, final 4/4.
 */
#define N 4

/* Weighted mean by running update: W += w[i]; m += (x[i] - m) * (w[i] / W),
 * over the samples with positive weight. */
static double weighted_mean(const double *w, const double *x)
{
    double W = 0.0, m = 0.0;
    int i;

    for (i = 0; i < N; i++) {
        double wi = w[i];
        if (wi > 0.0) {
            W = W + wi;
            m = m + (x[i] - m) * (wi / W);
        }
    }
    return m;
}

double prog(const double *w, const double *x)
{
    double mean = weighted_mean(w, x);
    double t = 0.0;
    int i;

    /* Core loop. */
    for (i = 0; i < N; i++) {
        double wi = w[i];
        if (wi > 0.0) {
            double d = x[i] - mean;
            t = t + wi * d * d;
        }
    }
    return t;
}
