/*
 * heron -- seed 001 (CPBPV_FP / FPCS: Collavizza, Michel, Rueher, ICTSS
 * 2016; /work/shared/seeds/001_6d530a6f8d3cd4cf.txt), Section 2, Fig. 1.
 *
 * Squared area of a triangle by Heron's formula, s*(s-a)*(s-b)*(s-c) with
 * s = (a+b+c)/2, computed when a <= b + c ("the test of line 5 ensures that
 * the given lengths form a valid triangle"; a is the longest side). Fig. 1
 * itself was lost in the seed's text extraction: this is the program as the
 * text describes it and as bench/cp/gen_critical.py reads it (left-to-right
 * products, float literals, 0 returned for an invalid triangle). The
 * paper's "line 5" is the `@branch valid` line below and its "line 7" the
 * `@stmt formula` line.
 *
 * Inputs (seed): a in [5, 10], b in [0, 5], c in [0, 5] (float).
 * Output: squared_area. Over the reals it is in [0, 156.25] (156.25 for the
 * right triangle b = c = 5, a = 5*sqrt(2)). Value analysis over the floats
 * (Fluctuat / rAiCp) gives [-1262.21, 979.01].
 * Suspicious intervals and the seed's answers (Table 1 with the times was
 * lost; the witnesses' input values were lost too):
 *   tolerance 1e-5:  [-1262.21, -1e-5)     sat  (test case found)
 *                    (156.25001, 979.01]   sat  (squared_area = 156.25003)
 *   tolerance 1e-3:  "CPBPV_FP could also prove the absence of test cases
 *                    for a tolerance 1e-3 with [lost]": unsat for
 *                    [-1262.21, -1e-3) and/or (156.251, 979.01] (which one
 *                    the lost words name is unknown).
 * CBMC and CDFL time out (20 min) on this program; no time of CPBPV_FP
 * survives. See critical.json for natively checked witnesses.
 */

float heron(float a, float b, float c) {
    float s;
    float squared_area = 0.0f;
    if (a <= b + c) {                                   /* @branch valid */
        s = (a + b + c) / 2.0f;
        squared_area = s * (s - a) * (s - b) * (s - c);  /* @stmt formula */
    }
    return squared_area;
}
