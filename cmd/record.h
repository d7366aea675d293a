/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_CMD_RECORD_H
#define GT_CMD_RECORD_H

#include "capture/record-engine.h"

/* 0 ok, 1 help printed, -1 error (already in err). */
int record_opts_parse(int argc, char **argv, struct record_opts *o,
		      struct gt_error *err);

/* Warns when the file's jobs never finished (their events are missing). */
void record_check_jobs(struct record_run *run);

/* record --flight-recorder (cmd/flight.c): runs until stopped; the exit status */
int cmd_flight(struct record_opts *o);

#endif
