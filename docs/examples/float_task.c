// An SV-COMP-style task: can a sensor reading and its calibration drive
// the corrected value past the alarm limit? (They can: reach_error() is
// reachable.)
extern float __VERIFIER_nondet_float(void);
extern void abort(void);
void reach_error(void) { abort(); }
void assume_abort_if_not(int c) { if (!c) abort(); }

int main(void) {
  float raw = __VERIFIER_nondet_float();
  float gain = __VERIFIER_nondet_float();
  assume_abort_if_not(raw >= 0.0f && raw <= 4095.0f);
  assume_abort_if_not(gain >= 0.5f && gain <= 2.0f);
  float corrected = raw * gain - 0.25f * raw;
  if (corrected > 7000.0f) reach_error();
  return 0;
}
