// SPDX-License-Identifier: GPL-2.0
/*
 * record and top end alike: Ctrl-C, Ctrl-\, SIGTERM and SIGHUP ask the main
 * loop to stop, and the teardown runs either way (Ctrl-\ too: its default
 * would skip it); a reader of our output that went away is a failed write,
 * not death before the teardown. A SIGHUP that was ignored (nohup: a
 * recording meant to outlive its terminal) stays ignored.
 */
#include <signal.h>
#include <stddef.h>

#include "cmd.h"

volatile sig_atomic_t cmd_stop_signal;

static void on_stop(int sig)
{
	cmd_stop_signal = sig;
}

void cmd_stop_signals_install(int extra_sig, void (*extra)(int))
{
	static const int stops[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
	struct sigaction sa = { 0 };
	size_t i;

	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_stop;
	for (i = 0; i < sizeof(stops) / sizeof(stops[0]); i++) {
		struct sigaction old;

		if (stops[i] == SIGHUP && !sigaction(SIGHUP, NULL, &old) && old.sa_handler == SIG_IGN)
			continue;
		sigaction(stops[i], &sa, NULL);
	}
	if (extra) {
		sa.sa_handler = extra;
		sigaction(extra_sig, &sa, NULL);
	}
	signal(SIGPIPE, SIG_IGN);
}
