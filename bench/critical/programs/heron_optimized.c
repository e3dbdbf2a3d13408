/*
 * optimized_heron -- seed 001 (CPBPV_FP / FPCS: Collavizza, Michel, Rueher,
 * ICTSS 2016; /work/shared/seeds/001_6d530a6f8d3cd4cf.txt), Section 2.
 *
 * heron.c with "line 7 of Heron's program rewritten [...] to limit the loss
 * of accuracy due to cancellation". The rewritten line (the seed's
 * "figure a") was lost in extraction; as bench/cp/gen_critical.py, it is
 * taken to be Kahan's cancellation-free form of the same product,
 *     ((a + (b + c)) * (c - (a - b)) * (c + (a - b)) * (a + (b - c))) / 16,
 * which equals s(s-a)(s-b)(s-c) over the reals.
 *
 * Inputs (seed): a in [5, 10], b in [0, 5], c in [0, 5] (float).
 * Output: squared_area; real range [0, 156.25]; float range (value
 * analysis) [-1262.21, 979.01] as for heron (the seed does not repeat it).
 * Suspicious intervals and the seed's answers (tolerance 1e-5):
 *   [-1262.21, -1e-5)     sat   (test case found, squared_area =
 *                               -1.0000001e-5; input values lost)
 *   (156.25001, 979.01]   unsat ("There are no more problems in the
 *                               interval (156.25001, 979.01] and CPBPV_FP
 *                               did prove it")
 * No time survives (Table 1 lost). CBMC and CDFL time out (20 min).
 * Note: the float nearest 156.25001 is 156.2500152587890625, above the
 * decimal 156.25001; whether the bound is a float or a double matters
 * (critical.json, native_check).
 */

float heron_optimized(float a, float b, float c) {
    float squared_area = 0.0f;
    if (a <= b + c) {                                   /* @branch valid */
        squared_area = ((a + (b + c)) * (c - (a - b)) * (c + (a - b)) * (a + (b - c))) / 16.0f;  /* @stmt formula */
    }
    return squared_area;
}
