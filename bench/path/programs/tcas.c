/*
 * tcas_periodic_task_1Hz() -- the TCAS program of seed 000 (FPSE: Bagnara,
 * Carlier, Gori, Gotlieb, ICST 2013; /work/shared/seeds/000_ad3c12a3dbbf6ba2.txt,
 * Section VI, Fig. 3 and Table III).
 *
 * WHICH TCAS. This is NOT the Siemens-suite tcas.c (alt_sep_test,
 * Non_Crossing_Biased_Climb, ...: an integer program with no loop). The seed
 * uses "the function tcas_periodic_task_1Hz(), ... the core of a TCAS system
 * (Traffic Collision Avoidance System) embedded into unmanned aircrafts",
 * footnote 7: "The complete source code is available at paparazzi.enac.fr",
 * i.e. the Paparazzi autopilot's multi/tcas.c module. It is a float program
 * (positions, speeds, tau = distance^2 / closing rate) with a main loop over
 * the other aircraft: `for (i = 2; i < NB_ACS; i++)`.
 *
 * WHAT IS FAITHFUL. The seed prints only an excerpt (Fig. 3): the loop
 * header, `uint32_t dt = gps_itow - acs[i].itow;`, the float statements dx,
 * dy, dz, dvx, dvy, dvz, scal, ddh, ddv, `float tau = TCAS_HUGE_TAU;` and a
 * `switch` on tcas_acs_status[i].status with cases TCAS_RA, TCAS_TA,
 * TCAS_NO_ALARM (bodies elided). Those statements are reproduced exactly
 * (Fig. 3's second `float dvz = vy - ...` is a typo for dvy: scal uses
 * dvy). Everything the excerpt elides (the altitude guard, the `continue`s
 * on missing or stale data, tau, TCAS_IsInside(), the case bodies, the
 * closest aircraft, tcas_test_direction(), the constants) is written here
 * from the structure of Paparazzi's module, not copied from it: it is a
 * reconstruction, and the code after the loop is reduced to "the closest
 * aircraft in conflict becomes the current one". Constants are Paparazzi's
 * defaults (CARROT 5 s, TAU_TA 2*CARROT, TAU_RA CARROT, DMOD 10 m, ALIM 15 m,
 * DT_MAX 1500 ms, HUGE_TAU 100*TAU_TA); GROUND_ALT 185 m, SECURITY_HEIGHT
 * 25 m and AC_ID 4 stand for a flight plan and an airframe (assumed).
 *
 * ADAPTATIONS for path specs and for a --function entry (semantics kept):
 *  - one statement per line; every `a && b` / `a || b` test is split into
 *    nested or successive `if`s with one comparison each, so each branch has
 *    its own source line (marked `@branch NAME`; paths.json gives numbers);
 *    in case TCAS_TA, `tau > tau_ta && !inside` became `tau > tau_ta`
 *    because `inside` is already known false there;
 *  - NB_ACS (a compile-time constant in Paparazzi) is the input nb_acs, in
 *    [2, TCAS_MAX_ACS]: the main loop runs nb_acs - 2 times, so "paths up to
 *    5 iterations of the main loop" (the paper's bound) are those with
 *    nb_acs <= 7 = TCAS_MAX_ACS;
 *  - Paparazzi's the_acs[] table and the per-aircraft tcas_acs_status[]
 *    (status and resolve left by the previous period) are the input arrays
 *    acs[] and acs_status[] (index 0: ground station, 1: this aircraft, both
 *    unused by the loop, as in Paparazzi); aircraft are referred to by
 *    index, not by id through the_acs_id[];
 *  - the estimator_* and gps_itow globals are set from parameters.
 *
 * TRANSCENDENTAL FUNCTIONS. As in Fig. 3, dvx/dvy use sinf/cosf of the
 * other aircraft's course (and vx/vy of this aircraft's heading). The seed
 * says (Sect. VII) that transcendental functions are outside its scope and
 * does not say how FPSE treated them. With -DTCAS_TRIG_AS_INPUTS the sine
 * and cosine become free inputs (fields course_sin/course_cos; for this
 * aircraft acs[1].course_sin/course_cos), the default build calls libm. The
 * two builds have the same line numbers.
 *
 * THE PAPER'S FIGURES: "all the possible paths up to 5 iterations of the
 * main loop. This corresponds to about 130 paths among which 51% were shown
 * to be infeasible by FPSE, regardless of whether ULP Max was used or not.
 * For the remaining 49% of feasible paths, ULP Max has effects on 27 paths"
 * (Table III: per path NbC 152 or 157, NbV 191, test generation 0.027 to
 * 3.7 s with or without ULP-Max, speedup 0.91 to 2.55, below 1 on "9 cases
 * out of 27"). The path set depends on the exact source, so this
 * reconstruction's path count is not expected to be ~130; see paths.json.
 *
 * Entry: uint8_t tcas(est_x, est_y, est_z, est_z_dot, est_hspeed_mod,
 * est_hspeed_dir, itow, nb_acs, acs, acs_status): sets the estimator_* /
 * gps_itow globals, runs tcas_init() and one tcas_periodic_task_1Hz(),
 * returns tcas_status (0 no alarm, 1 TA, 2 RA; tcas_resolve and
 * acs_status[] are updated too). acs and acs_status must have
 * TCAS_MAX_ACS = 7 entries and nb_acs must be in [2, 7] (fpsym:
 * --array-len 7 --range 'nb_acs=[2,7]'); the program does not check it.
 * acs_status[i].status outside 0..2 matches no case of the switch.
 */
#include <math.h>
#include <stdint.h>

#define CARROT 5.
#define TCAS_TAU_TA (2. * CARROT)
#define TCAS_TAU_RA CARROT
#define TCAS_DMOD 10.
#define TCAS_ALIM 15.
#define TCAS_DT_MAX 1500
#define TCAS_HUGE_TAU (100 * TCAS_TAU_TA)
#define GROUND_ALT 185.
#define SECURITY_HEIGHT 25.
#define AC_ID 4
#define AC_IDX 1
#define TCAS_MAX_ACS 7

#define TCAS_NO_ALARM 0
#define TCAS_TA 1
#define TCAS_RA 2
#define RA_NONE 0
#define RA_CLIMB 1
#define RA_DESCEND 2

#ifdef TCAS_TRIG_AS_INPUTS
#define SIN_OF(ac) ((ac).course_sin)
#define COS_OF(ac) ((ac).course_cos)
#define SIN_HEADING() (the_acs[AC_IDX].course_sin)
#define COS_HEADING() (the_acs[AC_IDX].course_cos)
#else
#define SIN_OF(ac) sinf((ac).course)
#define COS_OF(ac) cosf((ac).course)
#define SIN_HEADING() sinf(estimator_hspeed_dir)
#define COS_HEADING() cosf(estimator_hspeed_dir)
#endif

struct tcas_ac {
    uint8_t ac_id;      /* 0: no data received */
    uint32_t itow;      /* ms, GPS time of week of its last report */
    float east;         /* m */
    float north;        /* m */
    float alt;          /* m */
    float course;       /* rad */
    float gspeed;       /* m/s */
    float climb;        /* m/s */
    float course_sin;   /* used only with -DTCAS_TRIG_AS_INPUTS */
    float course_cos;   /* used only with -DTCAS_TRIG_AS_INPUTS */
};

struct tcas_ac_status {
    uint8_t status;
    uint8_t resolve;
};

float estimator_x;
float estimator_y;
float estimator_z;
float estimator_z_dot;
float estimator_hspeed_mod;
float estimator_hspeed_dir;
uint32_t gps_itow;
int NB_ACS;
struct tcas_ac *the_acs;

float tcas_tau_ta;
float tcas_tau_ra;
float tcas_dmod;
float tcas_alim;
uint8_t tcas_status;
uint8_t tcas_resolve;
uint8_t tcas_ac_RA;
struct tcas_ac_status *tcas_acs_status;

void tcas_init(void) {
    tcas_tau_ta = TCAS_TAU_TA;
    tcas_tau_ra = TCAS_TAU_RA;
    tcas_dmod = TCAS_DMOD;
    tcas_alim = TCAS_ALIM;
    tcas_status = TCAS_NO_ALARM;
    tcas_resolve = RA_NONE;
    tcas_ac_RA = AC_IDX;
}

static uint8_t tcas_test_direction(uint8_t idx) {
    float dz = the_acs[idx].alt - estimator_z;
    if (dz > tcas_alim / 2) {                              /* @branch dir_above */
        return RA_DESCEND;
    }
    if (dz < -tcas_alim / 2) {                             /* @branch dir_below */
        return RA_CLIMB;
    }
    if (AC_ID < the_acs[idx].ac_id) {                      /* @branch dir_id */
        return RA_DESCEND;
    }
    return RA_CLIMB;
}

void tcas_periodic_task_1Hz(void) {
    uint8_t i;
    /* no TCAS under security_height */
    if (estimator_z < GROUND_ALT + SECURITY_HEIGHT) {       /* @branch low_alt */
        for (i = 0; i < NB_ACS; i++) {                      /* @branch reset_loop */
            tcas_acs_status[i].status = TCAS_NO_ALARM;
        }
        return;
    }
    /* test possible conflicts */
    float tau_min = tcas_tau_ta;
    uint8_t ac_id_close = AC_IDX;
    float vx = estimator_hspeed_mod * SIN_HEADING();
    float vy = estimator_hspeed_mod * COS_HEADING();
    for (i = 2; i < NB_ACS; i++) {                          /* @branch main_loop */
        if (the_acs[i].ac_id == 0) {                        /* @branch no_data */
            continue;
        }
        uint32_t dt = gps_itow - the_acs[i].itow;
        if (dt > 3 * TCAS_DT_MAX) {                         /* @branch timeout */
            tcas_acs_status[i].status = TCAS_NO_ALARM;
            continue;
        }
        if (dt > TCAS_DT_MAX) {                             /* @branch lost_com */
            continue;
        }
        float dx = the_acs[i].east - estimator_x;
        float dy = the_acs[i].north - estimator_y;
        float dz = the_acs[i].alt - estimator_z;
        float dvx = vx - the_acs[i].gspeed * SIN_OF(the_acs[i]);
        float dvy = vy - the_acs[i].gspeed * COS_OF(the_acs[i]);
        float dvz = estimator_z_dot - the_acs[i].climb;
        float scal = dvx * dx + dvy * dy + dvz * dz;
        float ddh = dx * dx + dy * dy;
        float ddv = dz * dz;
        float tau = TCAS_HUGE_TAU;
        if (scal > 0.) {                                    /* @branch scal_pos */
            tau = (ddh + ddv) / scal;
        }
        /* TCAS_IsInside(): inside the horizontal dmod area and twice alim */
        uint8_t inside = 0;
        if (ddh < tcas_dmod * tcas_dmod) {                  /* @branch inside_h */
            if (ddv < (2 * tcas_alim) * (2 * tcas_alim)) {  /* @branch inside_v */
                inside = 1;
            }
        }
        switch (tcas_acs_status[i].status) {                /* @switch status */
            case TCAS_RA:
                if (tau >= TCAS_HUGE_TAU) {                 /* @branch ra_tau */
                    if (!inside) {                          /* @branch ra_inside */
                        tcas_acs_status[i].status = TCAS_NO_ALARM;   /* conflict resolved */
                        tcas_acs_status[i].resolve = RA_NONE;
                    }
                }
                break;
            case TCAS_TA:
                if (tau < tcas_tau_ra) {                    /* @branch ta_tau_ra */
                    tcas_acs_status[i].status = TCAS_RA;    /* TA -> RA */
                    break;
                }
                if (inside) {                               /* @branch ta_inside */
                    tcas_acs_status[i].status = TCAS_RA;    /* TA -> RA */
                    break;
                }
                if (tau > tcas_tau_ta) {                    /* @branch ta_tau_ta */
                    tcas_acs_status[i].status = TCAS_NO_ALARM;   /* conflict resolved */
                }
                tcas_acs_status[i].resolve = RA_NONE;
                break;
            case TCAS_NO_ALARM:
                if (tau < tcas_tau_ta) {                    /* @branch na_tau_ta */
                    tcas_acs_status[i].status = TCAS_TA;    /* NO_ALARM -> TA */
                } else if (inside) {                        /* @branch na_inside_ta */
                    tcas_acs_status[i].status = TCAS_TA;    /* NO_ALARM -> TA */
                }
                if (tau < tcas_tau_ra) {                    /* @branch na_tau_ra */
                    tcas_acs_status[i].status = TCAS_RA;    /* NO_ALARM -> RA */
                } else if (inside) {                        /* @branch na_inside_ra */
                    tcas_acs_status[i].status = TCAS_RA;    /* NO_ALARM -> RA */
                }
                break;
        }
        /* store closest AC */
        if (tau < tau_min) {                                /* @branch closest */
            tau_min = tau;
            ac_id_close = i;
        }
    }
    /* set current conflict mode (reduced, see the header) */
    if (ac_id_close != AC_IDX) {                            /* @branch conflict */
        tcas_ac_RA = ac_id_close;
        tcas_status = tcas_acs_status[ac_id_close].status;
        if (tcas_status == TCAS_RA) {                       /* @branch conflict_ra */
            tcas_resolve = tcas_test_direction(ac_id_close);
        }
    } else {
        tcas_status = TCAS_NO_ALARM;
        tcas_resolve = RA_NONE;
        tcas_ac_RA = AC_IDX;
    }
}

uint8_t tcas(float est_x, float est_y, float est_z, float est_z_dot,
             float est_hspeed_mod, float est_hspeed_dir, uint32_t itow,
             int nb_acs, struct tcas_ac *acs, struct tcas_ac_status *acs_status) {
    tcas_init();
    estimator_x = est_x;
    estimator_y = est_y;
    estimator_z = est_z;
    estimator_z_dot = est_z_dot;
    estimator_hspeed_mod = est_hspeed_mod;
    estimator_hspeed_dir = est_hspeed_dir;
    gps_itow = itow;
    NB_ACS = nb_acs;
    the_acs = acs;
    tcas_acs_status = acs_status;
    tcas_periodic_task_1Hz();
    return tcas_status;
}
