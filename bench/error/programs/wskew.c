/*
 * wskew.c -- FPGen (seed 002, Guo & Rubio-Gonzalez, ICSE 2020) benchmark
 * "wskew (wskew-m)", in the style of GSL's gsl_stats_wskew: the weighted
 * skewness.  Table 2: 2 arrays(4).  The seed (footnote 9) counts wskew-m
 * (GSL's variant given the mean and the standard deviation) as a replicate
 * of it; here both are computed, as wskew does: mean by the weighted mean,
 * sd by the weighted standard deviation of wsd.c (with the bias factor).
 *
 * Function: double prog(const double *w, const double *x)
 * Inputs:   w[0..4), the weights, and x[0..4), the samples; doubles.  The
 *           seed generates FLOAT values in [-100, 100] for both.  As in GSL,
 *           a sample whose weight is not positive (w[i] <= 0) is skipped.
 *           All accumulators are double (the seed, footnote 11, changed
 *           GSL's long double accumulators to double).
 * Output:   the return value, the running weighted mean of z^3 with
 *           z = (x[i] - mean) / sd (W += w[i]; r += (z^3 - r) * (w[i] / W)).
 *           (NaN or infinite when sd is 0 or not finite, as in GSL.)
 * FPGen's injection site: the accumulator update of r.
 *
 * Seed Table 3 (maximum relative error, number of inputs, time; 2 h budget):
 *   FPGen       2.5675e+01  89715  02:00:00
 *   Random      2.5025e-11  497012  02:00:00
 *   S3FP        3.1646e-02  507847  02:00:00
 *   KLEE-Float  0.0000e+00  1  <=00:00:01
 * Table 2 (symbolized/concretized inputs): initial 4/4, final 4/4.
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
    double sd = sqrt(bias_factor(w) * weighted_var_about(w, x, mean));
    double W = 0.0, r = 0.0;
    int i;

    /* Core loop. */
    for (i = 0; i < N; i++) {
        double wi = w[i];
        if (wi > 0.0) {
            double z = (x[i] - mean) / sd;
            W = W + wi;
            r = r + (z * z * z - r) * (wi / W);
        }
    }
    return r;
}
