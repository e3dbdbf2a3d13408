/*
 * dichotomic() -- seed 000, Fig. 2 (FPSE: Bagnara, Carlier, Gori, Gotlieb,
 * "Symbolic Path-Oriented Test Data Generation for Floating-Point Programs",
 * ICST 2013; /work/shared/seeds/000_ad3c12a3dbbf6ba2.txt, Section VI).
 *
 * The function of Fig. 2, character for character in its statements, laid
 * out one statement per line so a path can be written by source line
 * (`LOOP:T,IF:F,...`). The two branch lines are marked below with
 * `@branch`; bench/path/programs/paths.json gives their numbers.
 *
 * All arithmetic is binary32 (FLT_EVAL_METHOD 0, x86-64 SSE, round to
 * nearest even); compile with -O0 -ffp-contract=off. Inputs: xL, xR, any
 * float. Entry: dichotomic(float xL, float xR).
 *
 * Note the `if` tests f(xL)*f(xM) > -1 (not < 0): the function is not a
 * real bisection; e.g. from (-10, 10) the loop runs 18 times and returns
 * about -1.25, not -sqrt(2).
 *
 * The paper's experiment (Table II, timeout 30 min, Core 2 Duo 3.00 GHz,
 * mean of 10 runs): one path iterating 12 times, "selected at random" (the
 * paper does not say which), and its 12 prefixes (1..12 iterations). CPU
 * seconds to generate a test input, FPSE without / with ULP-Max filtering:
 *    #   NbC  NbV   w/o        w/        speedup
 *    1    17   12   0.142      0.080     1.775
 *    2    31   22  12.326      3.536     3.486
 *    3    45   32   3.969      0.872     4.552
 *    4    59   42  timeout   847.778     inf
 *    5    73   52   2.370      1.506     1.574
 *    6    87   62  timeout     2.050     inf
 *    7   101   72   6.087      0.983     6.192
 *    8   115   82  timeout   timeout     -     (unsolved by both)
 *    9   129   92   2.352      0.978     2.405
 *   10   143  102  timeout     2.482     inf
 *   11   157  112   2.471      0.724     3.413
 *   12   171  122   4.924      2.642     1.864
 * Since the paper's path is unknown, the benchmark uses the path of the
 * concrete run dichotomic(-10.0f, 10.0f), whose first 12 `if` outcomes are
 * F T T F T T T T T T T T (as bench/cp/gen_dichotomic.py), so every prefix
 * is feasible.
 */

float f(float x) {
    return x * x - 2.0F;
}

float dichotomic(float xL, float xR) {
    float xM = 1.0F;
    while ((xR - xL) > 0.0001F) {           /* @branch loop */
        xM = (xR + xL) / 2.0F;
        if ((f(xL) * f(xM)) > -1.0F) {       /* @branch if */
            xL = xM;
        } else {
            xR = xM;
        }
    }
    return xM;
}
