// SPDX-License-Identifier: GPL-2.0
/*
 * record and top end alike: Ctrl-C, Ctrl-\, SIGTERM and SIGHUP ask the main
 * loop to stop, and the teardown runs either way (Ctrl-\ too: its default
 * would skip it); a reader of our output that went away is a failed write,
 * not death before the teardown. A SIGHUP that was ignored (nohup: a
 * recording meant to outlive its terminal) stays ignored.
 *
 * report ends on the same signals as it always did, but first removes its
 * -o file's private temporary (cmd_remove_on_stop); there every signal that
 * was ignored stays ignored (the open guard's watcher passes them all on,
 * the child's disposition decides). unlink() and raise() are safe in a
 * handler; the name is copied before the handler is in place. The stop
 * signals are held from just before the file is made (cmd_remove_on_stop_hold)
 * until its handler is in place: one that lands between the two is delivered
 * then, to the handler, and never ends us with the file left behind.
 */
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/outfile.h"
#include "cmd.h"

static const int stops[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
#define NR_STOPS (sizeof(stops) / sizeof(stops[0]))

volatile sig_atomic_t cmd_stop_signal;

static void on_stop(int sig)
{
	cmd_stop_signal = sig;
}

void cmd_stop_signals_install(int extra_sig, void (*extra)(int))
{
	struct sigaction sa = { 0 };
	size_t i;

	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_stop;
	for (i = 0; i < NR_STOPS; i++) {
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
	/*
	 * a parent that blocked them (a daemon's thread: slurmstepd, a service
	 * manager's helper) hands the mask down: a stop it cannot hear would
	 * leave the recording running for ever
	 */
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < NR_STOPS; i++)
		sigaddset(&sa.sa_mask, stops[i]);
	if (extra)
		sigaddset(&sa.sa_mask, extra_sig);
	sigprocmask(SIG_UNBLOCK, &sa.sa_mask, NULL);
}

/*
 * A reader of standard output or error that went away (record -a 2>&1 |
 * head -2) shows only as a failed write, and a recording without a terminal
 * writes nothing until its end: a pipe or socket whose other end closed is
 * asked with poll() instead (POLLERR/POLLHUP on the writing end), and read as
 * a SIGPIPE that ends the run through its teardown.
 */
void cmd_stop_if_output_gone(void *ctx)
{
	int fds[] = { STDOUT_FILENO, STDERR_FILENO };
	size_t i;

	(void)ctx;
	for (i = 0; i < sizeof(fds) / sizeof(fds[0]) && !cmd_stop_signal; i++) {
		struct pollfd p = { .fd = fds[i] };
		struct stat st;

		if (fstat(fds[i], &st) || (!S_ISFIFO(st.st_mode) && !S_ISSOCK(st.st_mode)))
			continue;
		if (poll(&p, 1, 0) == 1 && (p.revents & (POLLERR | POLLHUP)))
			cmd_stop_signal = SIGPIPE;
	}
}

/* as long as any output's private name */
static char remove_path[sizeof(((struct outfile *)0)->tmp_path)];
static struct sigaction before_remove[NR_STOPS];
static sigset_t before_hold;
static bool holding;

static void release_hold(void)
{
	if (holding)
		sigprocmask(SIG_SETMASK, &before_hold, NULL);
	holding = false;
}

void cmd_remove_on_stop_hold(void)
{
	sigset_t stop_set;
	size_t i;

	if (holding)
		return;
	sigemptyset(&stop_set);
	for (i = 0; i < NR_STOPS; i++)
		sigaddset(&stop_set, stops[i]);
	holding = !sigprocmask(SIG_BLOCK, &stop_set, &before_hold);
}

static void remove_then_end(int sig)
{
	unlink(remove_path);
	signal(sig, SIG_DFL);
	raise(sig);
}

void cmd_remove_on_stop(const char *path)
{
	struct sigaction sa = { .sa_handler = remove_then_end };
	size_t i;

	snprintf(remove_path, sizeof(remove_path), "%s", path);
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < NR_STOPS; i++)
		sigaddset(&sa.sa_mask, stops[i]);
	for (i = 0; i < NR_STOPS; i++) {
		sigaction(stops[i], NULL, &before_remove[i]);
		if (before_remove[i].sa_handler != SIG_IGN)
			sigaction(stops[i], &sa, NULL);
	}
	release_hold();
}

void cmd_remove_on_stop_done(void)
{
	size_t i;

	release_hold();		/* the file was never made: a held stop ends us as it would have */
	if (!remove_path[0])
		return;
	for (i = 0; i < NR_STOPS; i++)
		sigaction(stops[i], &before_remove[i], NULL);
	remove_path[0] = '\0';
}
