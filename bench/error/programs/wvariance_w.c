/*
 * wvariance_w.c -- FPGen (seed 002, Guo & Rubio-Gonzalez, ICSE 2020)
 * benchmark "wvariance-w", in the style of GSL's
 * gsl_stats_wvariance_with_fixed_mean: the weighted variance about a mean
 * known in advance, without the bias correction factor.  Table 2: 2
 * arrays(4).  The seed's inputs are the two arrays only (Table 2: 4
 * symbolized + 4 concretized), so the mean is not an input: it is computed
 * here by the weighted mean (as wmean.c), then passed to the fixed-mean
 * variance.
 *
 * Function: double prog(const double *w, const double *x)
 * Inputs:   w[0..4), the weights, and x[0..4), the samples; doubles.  The
 *           seed generates FLOAT values in [-100, 100] for both.  As in GSL,
 *           a sample whose weight is not positive (w[i] <= 0) is skipped.
 *           All accumulators are double (the seed, footnote 11, changed
 *           GSL's long double accumulators to double).
 * Output:   the return value, v = running weighted mean of (x[i] - mean)^2
 *           (W += w[i]; v += ((x[i]-mean)^2 - v) * (w[i] / W)), with mean the
 *           weighted mean of the samples.
 * FPGen's injection site: the accumulator update of v.
 *
 * Seed Table 3 (maximum relative error, number of inputs, time; 2 h budget):
 *   FPGen       2.2858e-12  90107  02:00:00
 *   Random      7.9593e-12  529220  02:00:00
 *   S3FP        2.0918e-05  531397  02:00:00
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

/* Weighted mean of the squared deviations from mean, by running update:
 * W += w[i]; v += ((x[i] - mean)^2 - v) * (w[i] / W). */
static double weighted_var_about(const double *w, const double *x, double mean)
{
    double W = 0.0, v = 0.0;
    int i;

    for (i = 0; i < N; i++) {
        double wi = w[i];
        if (wi > 0.0) {
            double d = x[i] - mean;
            W = W + wi;
            v = v + (d * d - v) * (wi / W);
        }
    }
    return v;
}

double prog(const double *w, const double *x)
{
    double mean = weighted_mean(w, x);
    return weighted_var_about(w, x, mean);
}
