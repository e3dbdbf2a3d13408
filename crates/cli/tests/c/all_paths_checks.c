/* fpsym path --all-paths with a solver that answers each query only when
 * asked again (crates/cli/tests/path.rs): the checker's forks (the
 * division by k + 1000) are set aside and refuted like branch sides, but
 * they are not paths. Two paths, both feasible. */
int g(double x, int n) {
    int r = 0;
    if (x > 50.0) r += 2;
    int k = (int)x;
    r += 100 / (k + 1000);
    return r;
}
