/*
 * simple_interpolator -- seed 001 (CPBPV_FP / FPCS: Collavizza, Michel,
 * Rueher, ICTSS 2016; /work/shared/seeds/001_6d530a6f8d3cd4cf.txt),
 * Section 4: "simple_interpolator and simple square are two benches
 * extracted from [9]. The first bench computes an interpolator, affine by
 * sub-intervals". [9] is Goubault and Putot, "Robustness analysis of finite
 * precision implementations" (APLAS 2013), which is not among the seeds.
 *
 * RECONSTRUCTION, not from the seed: neither the code, the input range,
 * the output ranges, the suspicious intervals nor the answers survive in
 * the seed. Written as recalled from [9]: breakpoints E1 = {0, 5, 25},
 * values there R1 = {0, 5*2.25, 5*2.25 + 20*1.1}, slopes {2.25, 1.1, 0}
 * (constant 33.25 above 25); the sub-interval is found by a bounded loop
 * (at most 2 iterations), so loop unrolling (the seed's k) matters. The
 * input range E in [0, 100] is assumed. Over the reals the output is in
 * [0, 33.25] and continuous (1.1 is not a float: the float slope 1.1f
 * makes the float result differ).
 */

static const float E1[3] = {0.0f, 5.0f, 25.0f};
static const float R1[3] = {0.0f, 5.0f * 2.25f, 5.0f * 2.25f + 20.0f * 1.1f};
static const float S1[3] = {2.25f, 1.1f, 0.0f};

float simple_interpolator(float E) {
    int i = 0;
    float res;
    while (i < 2) {                                      /* @branch loop */
        if (E < E1[i + 1]) {                             /* @branch found */
            break;
        }
        i++;
    }
    res = R1[i] + S1[i] * (E - E1[i]);
    return res;
}
