/*
 * polynomial -- seed 001 (CPBPV_FP / FPCS: Collavizza, Michel, Rueher,
 * ICTSS 2016; /work/shared/seeds/001_6d530a6f8d3cd4cf.txt), Section 4,
 * Fig. 3 ("Computation of polynomial (a^2+b+10^-5)*c"; an absorption
 * example). Fig. 3 was lost in extraction; the expression is evaluated left
 * to right in float with the float literal 1e-5f, as bench/cp/gen_critical.py
 * (with a double literal 1e-5 the sum and product would be computed in
 * double: the seed does not say).
 *
 * Inputs (seed): a in [1e3, 1e4], b in [0, 1], c in [1e3, 1e4] (float).
 * Output: the polynomial. Over the reals its minimum is 1000000000.01
 * (a = 1000, b = 0, c = 1000); its maximum (not in the seed) is
 * (1e8 + 1 + 1e-5) * 1e4 = 1000000010000.1.
 * Suspicious interval: [x_F, 1000000000.01) with x_F, the float lower
 * bound of the value analysis, lost; the seed's answer and time were lost
 * with Table 1. Natively, (1000, 0, 1000) gives exactly 1e9, below the
 * real minimum when compared in double; 1000000000.01 has no float of its
 * own (it rounds to 1e9), so compared in float no value lies below it.
 */

float polynomial(float a, float b, float c) {
    return (a * a + b + 1e-5f) * c;
}
