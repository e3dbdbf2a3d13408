/* fpsym path --all-paths: every path of `halve`, for x in [0, 1e6] and n
 * in [0, 2] (crates/cli/tests/path.rs). Paths by hand: the loop runs n
 * times (0, 1 or 2; a third iteration is infeasible), then either
 * s <= 100 (return 0), or s > 100 and s - 1 != s (return 2).
 * `s - 1.0f == s` needs s >= 2^24 in float: infeasible with s <= 1e6.
 * So 3 x 2 = 6 feasible paths and 3 + 1 = 4 infeasible ones (the side
 * s - 1 == s after each loop count, and the third iteration). */
float halve(float x, int n) {
    float s = x;
    for (int i = 0; i < n; i++) {
        s = s * 0.5f;
    }
    if (s > 100.0f) {
        if (s - 1.0f == s) {
            return 1.0f;
        }
        return 2.0f;
    }
    return 0.0f;
}
