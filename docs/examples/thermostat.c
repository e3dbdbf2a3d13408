/* A heater controller step, checked for every sensor reading. */
#include <assert.h>
#include <klee/klee.h>

/* Heater power in [0, 1] from the measured and the target temperature. */
double heater_power(double measured, double target) {
    double error = target - measured;
    double power = 0.5 + 0.1 * error;
    if (power < 0.0)
        power = 0.0;
    if (power > 1.0)
        power = 1.0;
    return power;
}

int main(void) {
    double measured, target;
    klee_make_symbolic(&measured, sizeof measured, "measured");
    klee_make_symbolic(&target, sizeof target, "target");
    klee_assume(target >= 5.0 & target <= 30.0);
    double p = heater_power(measured, target);
    assert(p >= 0.0 && p <= 1.0);
    return 0;
}
