/* An SV-COMP-style task: a saturating event counter must never wrap. */
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
extern void abort(void);
void assume_abort_if_not(int cond) { if (!cond) abort(); }

int main(void) {
    int count = 0;
    int events = __VERIFIER_nondet_int();
    assume_abort_if_not(events >= 0 && events <= 5);
    for (int i = 0; i < events; i++)
        if (count < 3)
            count++;
    if (count > 3)
        reach_error();
    return 0;
}
