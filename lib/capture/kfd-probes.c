// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/file-io.h"
#include "capture/kfd-probes.h"
#include "capture/kprobe-def.h"
#include "tracefs/run-lock.h"
#include "tracefs/run-dir.h"
#include "tracefs/session.h"
#include "util/pid-ns.h"

/*
 * Offsets into the uapi structs (kfd_ioctl.h, unchanged from 6.1 to 7.3):
 * kfd_ioctl_create_queue_args: ring_base_address 0, write/read pointer
 * 8/16, doorbell_offset 24, ring_size 32, gpu_id 36, queue_type 40,
 * queue_percentage 44, queue_priority 48, queue_id 52, eop 56/64,
 * ctx_save_restore 72/80, ctl_stack_size 84. destroy: queue_id 0.
 * update: ring_base_address 0, queue_id 8, ring_size 12, percentage 16,
 * priority 20. The ioctl handlers are (filep, process, args).
 */
static const struct kprobe_def probe_defs[] = {
	{ "kfd_create_queue", "kfd_ioctl_create_queue", false,
	  "process=$arg2:x64 ring=+0($arg3):x64 wptr=+8($arg3):x64 rptr=+16($arg3):x64 "
	  "ring_size=+32($arg3):u32 gpu_id=+36($arg3):x32 type=+40($arg3):u32 "
	  "percentage=+44($arg3):u32 priority=+48($arg3):u32 eop=+56($arg3):x64 "
	  "eop_size=+64($arg3):u64 ctx_save=+72($arg3):x64 ctx_save_size=+80($arg3):u32 "
	  "ctl_stack_size=+84($arg3):u32", NULL },
	{ "kfd_create_queue_ret", "kfd_ioctl_create_queue", true, "ret=$retval:s32",
	  "queue_id=+52($arg3):u32 doorbell_offset=+24($arg3):x64" },
	{ "kfd_destroy_queue", "kfd_ioctl_destroy_queue", false,
	  "process=$arg2:x64 queue_id=+0($arg3):u32", NULL },
	{ "kfd_destroy_queue_ret", "kfd_ioctl_destroy_queue", true, "ret=$retval:s32", NULL },
	{ "kfd_update_queue", "kfd_ioctl_update_queue", false,
	  "process=$arg2:x64 ring=+0($arg3):x64 queue_id=+8($arg3):u32 ring_size=+12($arg3):u32 "
	  "percentage=+16($arg3):u32 priority=+20($arg3):u32", NULL },
	{ "kfd_update_queue_ret", "kfd_ioctl_update_queue", true, "ret=$retval:s32", NULL },
	{ "kfd_evict_queues", "kfd_process_evict_queues", false,
	  "process=$arg1:x64 trigger=$arg2:u32", NULL },
	{ "kfd_evict_queues_ret", "kfd_process_evict_queues", true, "ret=$retval:s32", NULL },
	{ "kfd_restore_queues", "kfd_process_restore_queues", false, "process=$arg1:x64", NULL },
	{ "kfd_restore_queues_ret", "kfd_process_restore_queues", true, "ret=$retval:s32", NULL },
};

#define NR_PROBES	(int)(sizeof(probe_defs) / sizeof(probe_defs[0]))

/* dynamic debug: the function whose pr_debug lines name the new queue */
#define DYNDBG_FUNC	"kfd_ioctl_create_queue"

const char *kfd_id_source_name(enum kfd_id_source s)
{
	switch (s) {
	case KFD_ID_RETPROBE:
		return "the create return probe";
	case KFD_ID_PR_DEBUG:
		return "kfd_ioctl_create_queue's pr_debug lines (dynamic debug, printk:console)";
	default:
		return "nothing on this kernel";
	}
}

static bool module_loaded(const char *name)
{
	char line[256];
	size_t n = strlen(name);
	bool found = false;
	FILE *f = fopen("/proc/modules", "re");

	while (f && !found && fgets(line, sizeof(line), f))
		found = !strncmp(line, name, n) && line[n] == ' ';
	if (f)
		fclose(f);
	return found;
}

const char *kfd_probes_unavailable(const char *tracing_dir)
{
	const char *why = kprobes_unavailable(tracing_dir);

	if (why)
		return why;
	if (!module_loaded("amdgpu"))
		return "amdgpu (which holds amdkfd) is not loaded";
	return NULL;
}

static int create_one(struct kfd_probes *p, const struct kprobe_def *d, struct gt_error *err)
{
	bool with_return_args;
	struct tracefs_dynevent *ev = kprobe_def_create(p->group, d, &with_return_args, err);

	if (!ev)
		return -1;
	if (with_return_args)
		p->id_source = KFD_ID_RETPROBE;
	p->events[p->nr_events++] = ev;
	return 0;
}

int kfd_probes_create(struct kfd_probes *p, int pid, struct gt_error *err)
{
	int i;

	memset(p, 0, sizeof(*p));
	p->dyndbg_lock = -1;
	snprintf(p->group, sizeof(p->group), "%s%d", KFD_PROBE_GROUP_PREFIX, pid);
	if (run_lock_live(err))
		return -1;
	p->events = calloc(NR_PROBES + 1, sizeof(*p->events));
	if (!p->events)
		return gt_error_set(err, ENOMEM, "out of memory defining the KFD probes");
	for (i = 0; i < NR_PROBES; i++) {
		if (create_one(p, &probe_defs[i], err)) {
			kfd_probes_remove(p, NULL);
			return -1;
		}
	}
	return 0;
}

static const char *dyndbg_control(void);
static char *dyndbg_restore_lines(const char *control);

enum kfd_id_source kfd_probes_id_source_here(void)
{
	const struct kprobe_def *d = &probe_defs[1];
	struct kfd_probes p = { 0 };
	struct tracefs_dynevent *ev;
	const char *control;
	char *lines;
	bool ok;

	snprintf(p.group, sizeof(p.group), "%s%d%s", KFD_PROBE_GROUP_PREFIX, (int)getpid(),
		 pid_ns_group_tag());
	if (run_lock_live(NULL))
		return KFD_ID_NONE;
	ev = kprobe_def_alloc(p.group, d, true);
	ok = ev && !tracefs_dynevent_create(ev);
	if (ok)
		tracefs_dynevent_destroy(ev, true);
	tracefs_dynevent_free(ev);
	if (ok)
		return KFD_ID_RETPROBE;
	control = dyndbg_control();
	lines = control ? dyndbg_restore_lines(control) : NULL;
	ok = lines && lines[0];
	free(lines);
	return ok ? KFD_ID_PR_DEBUG : KFD_ID_NONE;
}

static const char *dyndbg_control(void)
{
	static const char *const paths[] = {
		"/proc/dynamic_debug/control", "/sys/kernel/debug/dynamic_debug/control"
	};
	size_t i;

	for (i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
		if (!access(paths[i], W_OK))
			return paths[i];
	return NULL;
}

static int write_control(const char *control, const char *cmd)
{
	int fd = open(control, O_WRONLY | O_CLOEXEC);
	int ret;

	if (fd < 0)
		return -1;
	ret = write_all(fd, cmd, strlen(cmd));
	close(fd);
	return ret;
}

/*
 * "module amdgpu func kfd_ioctl_create_queue line N -p" for every line of
 * the function not already printing: exactly what we switch on.
 */
static char *dyndbg_restore_lines(const char *control)
{
	char line[1024], *out = NULL;
	size_t len = 0;
	FILE *f = fopen(control, "re");
	FILE *mem = open_memstream(&out, &len);

	while (f && mem && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');
		char *flags = strstr(line, "]" DYNDBG_FUNC " =");

		if (!colon || !flags)
			continue;
		flags += strlen("]" DYNDBG_FUNC " =");
		if (strcspn(flags, " ") > strcspn(flags, "p"))
			continue;	/* printing already: leave it be */
		fprintf(mem, "module amdgpu func %s line %ld -p\n", DYNDBG_FUNC,
			strtol(colon + 1, NULL, 10));
	}
	if (f)
		fclose(f);
	if (mem)
		fclose(mem);
	return out;
}

static int write_journal(const char *path, const char *text, struct gt_error *err)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);

	if (fd < 0 || write_all(fd, text, strlen(text))) {
		int e = errno;

		if (fd >= 0)
			close(fd);
		unlink(path);
		return gt_error_set(err, e, "cannot write the dynamic-debug journal %s: %s",
				    path, strerror(e));
	}
	return close(fd);
}

/*
 * pr_debug lines of kfd_ioctl_create_queue on, journaled; false: not
 * possible. One run at a time: a second would journal the first's switch as
 * the original and switch it off under the first, which loses its ids.
 */
static bool dyndbg_switch_on(struct kfd_probes *p, struct gt_error *err)
{
	const char *control = dyndbg_control();
	char *restore = NULL;

	if (!control)
		return false;
	p->dyndbg_lock = run_lock_take("dyndbg", &p->dyndbg_holder, err);
	if (p->dyndbg_lock < 0)
		return false;
	restore = dyndbg_restore_lines(control);
	if (!restore || run_dir_make(err))
		goto none;
	if (restore[0]) {
		snprintf(p->dyndbg_journal, sizeof(p->dyndbg_journal), "%s/gpu-trace-%d.dyndbg",
			 run_dir_path(), (int)getpid());
		if (write_journal(p->dyndbg_journal, restore, err)) {
			p->dyndbg_journal[0] = '\0';
			goto none;
		}
	}
	if (write_control(control, "module amdgpu func " DYNDBG_FUNC " +p\n")) {
		write_control(control, restore);
		if (p->dyndbg_journal[0])
			unlink(p->dyndbg_journal);
		p->dyndbg_journal[0] = '\0';
		goto none;
	}
	p->dyndbg_restore = restore;
	return true;
none:
	free(restore);
	close(p->dyndbg_lock);
	p->dyndbg_lock = -1;
	return false;
}

int kfd_probes_enable(struct kfd_probes *p, struct tracefs_instance *inst,
		      struct gt_error *err)
{
	if (tracefs_event_enable(inst, p->group, NULL))
		return gt_error_set(err, errno ? errno : EINVAL,
				    "cannot enable the KFD probes (%s): %s", p->group,
				    strerror(errno ? errno : EINVAL));
	return 0;
}

bool kfd_probes_pr_debug_on(struct kfd_probes *p)
{
	struct gt_error err = { 0 };

	if (p->id_source != KFD_ID_NONE || !tracefs_event_file_exists(NULL, "printk", "console", "enable"))
		return false;
	if (!dyndbg_switch_on(p, &err))
		return false;
	p->id_source = KFD_ID_PR_DEBUG;
	return true;
}

int kfd_probes_remove(struct kfd_probes *p, struct gt_error *err)
{
	const char *control = dyndbg_control();
	int ret = kprobe_defs_remove(p->events, p->nr_events, p->group, err);

	p->nr_events = 0;
	free(p->events);
	p->events = NULL;
	if (p->dyndbg_restore && control && write_control(control, p->dyndbg_restore) && !ret)
		ret = gt_error_set(err, errno, "cannot put dynamic debug back (%s): %s; run gpu-trace reset",
				   control, strerror(errno));
	if (p->dyndbg_journal[0] && !ret)
		unlink(p->dyndbg_journal);
	p->dyndbg_journal[0] = '\0';
	free(p->dyndbg_restore);
	p->dyndbg_restore = NULL;
	if (p->dyndbg_lock > 0)
		close(p->dyndbg_lock);
	p->dyndbg_lock = -1;
	return ret;
}

int kfd_dyndbg_restore_journal(const char *path, struct gt_error *err)
{
	const char *control = dyndbg_control();
	char buf[16384];
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

	if (fd >= 0)
		close(fd);
	if (n < 0)
		return gt_error_set(err, errno, "cannot read %s: %s", path, strerror(errno));
	buf[n] = '\0';
	if (n && (!control || write_control(control, buf)))
		return gt_error_set(err, control ? errno : ENOENT,
				    "cannot write dynamic debug's control file: %s",
				    strerror(control ? errno : ENOENT));
	return unlink(path) ? gt_error_set(err, errno, "cannot remove %s: %s", path,
					    strerror(errno)) : 0;
}
