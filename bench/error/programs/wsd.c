/*
 * wsd.c -- FPGen (seed 002, Guo & Rubio-Gonzalez, ICSE 2020) benchmark
 * "wsd (wsd-m)", in the style of GSL's gsl_stats_wsd: the weighted standard
 * deviation, the square root of the unbiased weighted variance (see
 * wvariance.c).  Table 2: 2 arrays(4).  The seed (footnote 9) counts wsd-m
 * (given the mean) as a replicate of it; here the mean is computed by the
 * weighted mean, as wsd does.
 *
 * Function: double prog(const double *w, const double *x)
 * Inputs:   w[0..4), the weights, and x[0..4), the samples; doubles.  The
 *           seed generates FLOAT values in [-100, 100] for both.  As in GSL,
 *           a sample whose weight is not positive (w[i] <= 0) is skipped.
 *           All accumulators are double (the seed, footnote 11, changed
 *           GSL's long double accumulators to double).
 * Output:   the return value, sqrt(factor * v) with mean, v and factor as
 *           in wvariance.c.
 * FPGen's injection site: the accumulator update of v.
 *
 * Seed Table 3 (maximum relative error, number of inputs, time; 2 h budget):
 *   FPGen       3.7439e-02  88883  02:00:00
 *   Random      7.5193e-12  529821  02:00:00
 *   S3FP        1.2977e-05  535576  02:00:00
 *   KLEE-Float  0.0000e+00  16  00:00:25
 * Table 2 (symbolized/concretized inputs): initial 4/4, final 2/6.
 */
#include <math.h>

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

/* Bias correction of the weighted variance: (sum w)^2 / ((sum w)^2 - sum w^2),
 * over the positive weights. */
static double bias_factor(const double *w)
{
    double a = 0.0, b = 0.0;
    int i;

    for (i = 0; i < N; i++) {
        double wi = w[i];
        if (wi > 0.0) {
            a = a + wi;
            b = b + wi * wi;
        }
    }
    return (a * a) / ((a * a) - b);
}

double prog(const double *w, const double *x)
{
    double mean = weighted_mean(w, x);
    double v = weighted_var_about(w, x, mean);
    return sqrt(bias_factor(w) * v);
}
