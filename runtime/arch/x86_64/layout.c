// SPDX-License-Identifier: MIT
/*
 * layout.c - that the numbers of layout.h, which probe_x86_64.S reads and
 * writes by, are where the C declarations put them (compile time only).
 */
#include "layout.h"
#include "rt.h"

_Static_assert(PP_ARMED_BASE == PP_ARMED_BASE_VALUE, "layout.h");
_Static_assert(offsetof(struct pp_fn, ncalls) == PP_OFF_FN_NCALLS, "layout.h");
_Static_assert(offsetof(struct pp_fn, armed) == PP_OFF_FN_ARMED, "layout.h");
_Static_assert(sizeof(struct pp_site) == 1u << PP_SIZEOF_SITE_SHIFT, "layout.h");
_Static_assert(offsetof(struct pp_site, mask[1]) == PP_OFF_SITE_MASK1, "layout.h");
_Static_assert(PP_MAX_SLOTS == PP_MAX_SLOTS_VALUE, "layout.h");
_Static_assert(offsetof(struct pp_thread, state) == PP_OFF_THREAD_STATE, "layout.h");
_Static_assert(sizeof(((struct pp_thread *)0)->state) == 4, "layout.h");
_Static_assert(offsetof(struct pp_thread, rng) == PP_OFF_THREAD_RNG, "layout.h");
_Static_assert(offsetof(struct pp_thread, plain) == PP_OFF_THREAD_PLAIN, "layout.h");
_Static_assert(offsetof(struct pp_thread, clock) == PP_OFF_THREAD_CLOCK, "layout.h");
_Static_assert(offsetof(struct pp_thread, c) == PP_OFF_THREAD_C, "layout.h");
_Static_assert(offsetof(struct pp_thread, delayed) == PP_OFF_THREAD_DELAYED, "layout.h");
_Static_assert(offsetof(struct pp_thread, delay_since) == PP_OFF_THREAD_DELAY_SINCE, "layout.h");
_Static_assert(PP_THREAD_LISTED == PP_THREAD_LISTED_VALUE, "layout.h");
_Static_assert(sizeof(struct pp_tcounter) == PP_SIZEOF_TCOUNTER, "layout.h");
_Static_assert(offsetof(struct pp_tcounter, depth) == PP_OFF_TC_DEPTH, "layout.h");
_Static_assert(offsetof(struct pp_tcounter, skip) == PP_OFF_TC_SKIP, "layout.h");
_Static_assert(offsetof(struct pp_tcounter, start) == PP_OFF_TC_START, "layout.h");
_Static_assert(offsetof(struct pp_tcounter, frame) == PP_OFF_TC_FRAME, "layout.h");
_Static_assert(offsetof(struct pp_tcounter, ret) == PP_OFF_TC_RET, "layout.h");
_Static_assert(offsetof(struct pp_tcounter, vframe) == PP_OFF_TC_VFRAME, "layout.h");
_Static_assert(offsetof(struct pp_tcounter, sum) == PP_OFF_TC_SUM, "layout.h");
_Static_assert(offsetof(struct pp_tcounter, count) == PP_OFF_TC_COUNT, "layout.h");
_Static_assert(offsetof(struct pp_tcounter, ssum) == PP_OFF_TC_SSUM, "layout.h");
_Static_assert(offsetof(struct pp_tcounter, stimed) == PP_OFF_TC_STIMED, "layout.h");
_Static_assert(offsetof(struct pp_tcounter, scount) == PP_OFF_TC_SCOUNT, "layout.h");
_Static_assert(offsetof(struct pp_tcounter, plain0) == PP_OFF_TC_PLAIN0, "layout.h");
_Static_assert(offsetof(struct pp_tcounter, clock0) == PP_OFF_TC_CLOCK0, "layout.h");
_Static_assert(offsetof(struct pp_tcounter, plain) == PP_OFF_TC_PLAIN, "layout.h");
_Static_assert(offsetof(struct pp_tcounter, clock) == PP_OFF_TC_CLOCK, "layout.h");
_Static_assert(offsetof(struct pp_tcounter, splain) == PP_OFF_TC_SPLAIN, "layout.h");
_Static_assert(offsetof(struct pp_tcounter, sclock) == PP_OFF_TC_SCLOCK, "layout.h");
_Static_assert(PP_SAMPLE_AFTER == PP_SAMPLE_AFTER_VALUE, "layout.h");
_Static_assert(sizeof(pp_use_ticks) == 1, "layout.h");
_Static_assert(sizeof(pp_delay_mark) == 8 && sizeof(pp_delay_ticks) == 8 &&
		   sizeof(pp_delay_every) == 8,
	       "layout.h");
_Static_assert(sizeof(pp_sample_counter) == 4 && sizeof(pp_seen_counter) == 4, "layout.h");
_Static_assert(PP_CALIB_SITE == PP_CALIB_SITE_VALUE, "layout.h");
_Static_assert(PP_EXIT_BIAS == PP_EXIT_BIAS_VALUE, "layout.h");
