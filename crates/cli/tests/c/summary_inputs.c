/* Findings whose inputs are forced, for the run summary's `input:` line
 * (crates/cli/tests/output.rs): scalars, a long array (abbreviated), a
 * struct behind a pointer, text. */
#include <assert.h>
#include <math.h>

struct pt { double x, y; };

int scalars(double x, double y) {
    if (x == 1.5 && y == -INFINITY)
        assert(0); /* line 11 */
    return 0;
}

/* With --array-len 10: one failing test (a = 0, 1, ..., 9) and ten
 * returning early. */
int counts(const int *a) {
    for (int i = 0; i < 10; i++)
        if (a[i] != i)
            return 0;
    assert(0); /* line 21 */
    return 1;
}

int point(const struct pt *p) {
    if (p->x == 2.0 && p->y == 0.25)
        assert(0); /* line 27 */
    return 0;
}

/* With --array-len 4. */
int text(const char *s) {
    if (s[0] == 'h' && s[1] == 'i' && s[2] == 0 && s[3] == 0)
        assert(0); /* line 34 */
    return 0;
}
