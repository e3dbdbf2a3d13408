/*
 * simple_square -- seed 001 (CPBPV_FP / FPCS: Collavizza, Michel, Rueher,
 * ICTSS 2016; /work/shared/seeds/001_6d530a6f8d3cd4cf.txt), Section 4:
 * "simple_interpolator and simple square are two benches extracted from
 * [9] [...] the second is a rewrite of a square root function used in an
 * industrial context". [9] is Goubault and Putot, "Robustness analysis of
 * finite precision implementations" (APLAS 2013), which is not among the
 * seeds.
 *
 * RECONSTRUCTION, not from the seed: neither the code, the input range,
 * the output ranges, the suspicious intervals nor the answers survive in
 * the seed. The code is the square-root approximation of [9] as recalled:
 * sqrt(I) by a Taylor polynomial of sqrt(1 + t), t = I - 1 for I < 2, and
 * sqrt(2) * sqrt(1 + u), u = I/2 - 1 for I >= 2, with the constant
 * sqrt2 = 1.414213538169860839843750 (the float nearest sqrt(2)). Its test
 * I >= 2 is the classic unstable test: the two branches differ by about
 * 0.0233 at I = 2. The input range I in [1, 3] is assumed; literals are
 * written as float (f) literals.
 */

float simple_square(float I) {
    const float sqrt2 = 1.414213538169860839843750f;
    float S;
    if (I >= 2.0f) {                                     /* @branch upper */
        S = sqrt2 * (1.0f + (I / 2.0f - 1.0f) * (0.5f - 0.125f * (I / 2.0f - 1.0f)));
    } else {
        S = 1.0f + (I - 1.0f) * (0.5f + (I - 1.0f) * (-0.125f + (I - 1.0f) * 0.0625f));
    }
    return S;
}
