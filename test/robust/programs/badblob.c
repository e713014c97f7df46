/*
 * badblob.c - a pinpoint table blob of another format version (a future one), linked
 * into an otherwise ordinary instrumented program.
 */
#include "pinpoint/abi.h"

struct blob {
	struct pp_table_header h;
	char strtab[8];
};

__attribute__((used, section(PP_TABLE_SECTION),
	       aligned(PP_TABLE_ALIGN))) static const struct blob vnext = {
    .h =
	{
	    .magic = {'P', 'I', 'N', 'P', 'O', 'I', 'N', 'T'},
	    .version = PP_TABLE_VERSION + 1,
	    .size = sizeof(struct blob),
	    .funcs_off = sizeof(struct pp_table_header),
	    .calls_off = sizeof(struct pp_table_header),
	    .strtab_off = sizeof(struct pp_table_header),
	    .strtab_size = 8,
	},
};
