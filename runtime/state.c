// SPDX-License-Identifier: MIT
/*
 * state.c - the state the runtime's files share, defined below all of
 * them: the parsed PINPOINT variable, the table of armed sites and the
 * runtime's state (written by arm.c), the modules that registered, the
 * calling thread's counter block, delay='s mark and wait, and the
 * calibration's private record.
 * Only data: no file here calls another.
 */
#include "rt.h"

struct pp_spec pp_spec;
struct pp_site pp_sites[PP_MAX_SITES];
int pp_state = PP_UNINIT;
int pp_init_pid;
unsigned pp_nmodules;
const char *pp_modules[PP_MAX_MODULES];

__thread struct pp_thread pp_self;
uint64_t pp_delay_mark;
uint64_t pp_delay_ticks;
uint64_t pp_delay_every;
uint32_t pp_delay_on;

static uint8_t pp_calib_flags[2];
struct pp_fn pp_calib_fn = {pp_calib_flags, "", "", 1, 0};
