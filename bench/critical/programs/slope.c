/*
 * slope -- seed 001 (CPBPV_FP / FPCS: Collavizza, Michel, Rueher, ICTSS
 * 2016; /work/shared/seeds/001_6d530a6f8d3cd4cf.txt), Section 4, Fig. 2.
 *
 * Central finite difference for the derivative of f(x) = x^2 at x0:
 * (f(x0 + h) - f(x0 - h)) / (2h). Fig. 2 was lost in extraction; the
 * statements are those bench/cp/gen_critical.py encodes (float literals;
 * the paper may have used the double literal 2.0, which would change the
 * rounding of the last two operations).
 *
 * Inputs (seed): x0 = 13 (fixed), h in [1e-6, 1e-3] (float).
 * Output: the slope. Over the reals it is exactly 26 (f'(13) = 2*13, the
 * central difference is exact for a quadratic). Fluctuat: [0, 25943].
 * Suspicious intervals: lost with Table 1. The seed's text says generate &
 * test "found a test case in less than 0.008 s for the 6 suspicious
 * intervals of program [name lost]" -- a one-input program, read as slope.
 * bench/cp/gen_critical.py's six intervals [0, 26 - eps) and
 * (26 + eps, 25943] for eps in {1e-5, 1e-3, 1} are a reconstruction, not
 * the paper's.
 */

float slope(float x0, float h) {
    float x1 = x0 + h;
    float x2 = x0 - h;
    float fx1 = x1 * x1;
    float fx2 = x2 * x2;
    float res = (fx1 - fx2) / (2.0f * h);
    return res;
}
