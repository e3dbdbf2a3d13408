/* fpsym error with an integer range open below (crates/cli/tests/error.rs):
 * the absorbing branch needs n > 5, which --range 'n=[-inf,5]' excludes,
 * so every input measured is exact (a reviewer's case: random integers
 * ignored the range and reported error 1 from n = 929310163). */
float gated(float x, int n) {
    float s = x;
    if (n > 5) {
        s = (x + 1e8f) - 1e8f;
    }
    return s;
}
