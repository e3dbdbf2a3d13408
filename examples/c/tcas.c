/* A TCAS-like collision-avoidance decision in the spirit of seed 000's
   tcas_periodic_task_1Hz (Fig. 3); our own code, binary32 like the original.
   For each of 2 intruders: relative position (dx, dy, dz) in [-5000, 5000] m,
   relative velocity (dvx, dvy, dvz) in [-300, 300] m/s, and the previous
   status.  tau = -(ddh + ddv) / scal estimates the time to closest approach.
   - assert (line 48): an intruder that is receding (scal >= 0) and outside
     the protected volume never gets a resolution advisory.  Unreachable
     (receding gives tau = HUGE_TAU, which clears any RA).
   - reach_error (line 50): requirement "no RA for an intruder more than 2 km
     away horizontally".  Reachable: a fast closing intruder gets an RA from
     tau alone.  fpsym should find reach_error at line 50 and nothing at 48. */
#include <assert.h>
extern float __VERIFIER_nondet_float(void);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int cond);
extern void reach_error(void);

enum { NO_ALARM, TA, RA };
#define NB_ACS 2
#define HUGE_TAU 1000.0f
#define TAU_TA 40.0f
#define TAU_RA 20.0f
#define DMOD 300.0f /* protected volume: horizontal radius and half height */
#define ZTHR 100.0f

static float in(float lo, float hi) {
  float v = __VERIFIER_nondet_float();
  __VERIFIER_assume(v >= lo && v <= hi);
  return v;
}

int main(void) {
  for (int i = 0; i < NB_ACS; i++) {
    float dx = in(-5000, 5000), dy = in(-5000, 5000), dz = in(-1000, 1000);
    float dvx = in(-300, 300), dvy = in(-300, 300), dvz = in(-50, 50);
    int status = __VERIFIER_nondet_int();
    __VERIFIER_assume(status >= NO_ALARM && status <= RA);
    float scal = dvx * dx + dvy * dy + dvz * dz;
    float ddh = dx * dx + dy * dy, ddv = dz * dz;
    float tau = HUGE_TAU;
    if (scal < 0.0f) tau = -(ddh + ddv) / scal;
    int inside = ddh < DMOD * DMOD && ddv < ZTHR * ZTHR;
    switch (status) {
    case RA: if (tau > TAU_RA * 1.2f && !inside) status = TA; break;
    case TA: if (tau < TAU_RA || inside) status = RA; else if (tau > TAU_TA) status = NO_ALARM; break;
    case NO_ALARM: if (tau < TAU_RA || inside) status = RA; else if (tau < TAU_TA) status = TA; break;
    }
    assert(!(status == RA && scal >= 0.0f && !inside));
    if (status == RA && ddh > 2000.0f * 2000.0f)
      reach_error();
  }
  return 0;
}
// expect: lines >= 95%, findings >= 1 (all confirmed by replay)
