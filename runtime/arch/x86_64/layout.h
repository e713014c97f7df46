/* SPDX-License-Identifier: MIT */
/*
 * layout.h - offsets of the structures the probes' x86-64 fast entry points
 * (probe_x86_64.S) read and write.  Plain numbers, so that the assembler can
 * include them; layout.c checks each against the C declarations.
 */
#ifndef PINPOINT_LAYOUT_H
#define PINPOINT_LAYOUT_H

/* pp_fn.armed from which the function has sites in pp_sites (PP_ARMED_BASE) */
#define PP_ARMED_BASE_VALUE 2
/* what the exit entry point's record argument is past the record (PP_EXIT_BIAS) */
#define PP_EXIT_BIAS_VALUE 1

/* XSAVE components the r11 entry points keep (vsave.c, pp_arch_vsave_init):
 * x87, SSE, AVX, AVX-512 opmask, ZMM_Hi256, Hi16_ZMM */
#define PP_XSAVE_MASK 0xe7

/* struct pp_fn (pinpoint/abi.h) */
#define PP_OFF_FN_NCALLS 24
#define PP_OFF_FN_ARMED 28

/* struct pp_site: two 64-bit masks of counters, the second's PP_MAX_SLOTS
 * after the first's */
#define PP_SIZEOF_SITE_SHIFT 4
#define PP_OFF_SITE_MASK1 8
#define PP_MAX_SLOTS_VALUE 64

/* struct pp_thread */
#define PP_OFF_THREAD_STATE 0
#define PP_OFF_THREAD_RNG 8
#define PP_OFF_THREAD_PLAIN 24
#define PP_OFF_THREAD_CLOCK 32
#define PP_OFF_THREAD_C 40
#define PP_OFF_THREAD_DELAYED 31528 /* after the counters and the target tables */
#define PP_OFF_THREAD_DELAY_SINCE 31536
#define PP_THREAD_LISTED_VALUE 1

/* struct pp_tcounter */
#define PP_SIZEOF_TCOUNTER 136
#define PP_OFF_TC_DEPTH 0
#define PP_OFF_TC_SKIP 4
#define PP_OFF_TC_START 8
#define PP_OFF_TC_FRAME 16
#define PP_OFF_TC_RET 24
#define PP_OFF_TC_VFRAME 32
#define PP_OFF_TC_SUM 40
#define PP_OFF_TC_COUNT 48
#define PP_OFF_TC_SSUM 64
#define PP_OFF_TC_STIMED 72
#define PP_OFF_TC_SCOUNT 80
#define PP_OFF_TC_PLAIN0 88
#define PP_OFF_TC_CLOCK0 96
#define PP_OFF_TC_PLAIN 104
#define PP_OFF_TC_CLOCK 112
#define PP_OFF_TC_SPLAIN 120
#define PP_OFF_TC_SCLOCK 128

/* a thread's all-timed executions of a counter before it may be sampled */
#define PP_SAMPLE_AFTER_VALUE 8192

/* the calibration's site (PP_CALIB_SITE) */
#define PP_CALIB_SITE_VALUE 1

#endif
