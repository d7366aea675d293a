// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture/kprobe-def.h"
#include "capture/nvidia-probes.h"
#include "tracefs/run-lock.h"
#include "util/pid-ns.h"

/*
 * The functions and their arguments, open-gpu-kernel-modules 595.45.04:
 * nvidia_unlocked_ioctl(struct file *, unsigned int cmd, unsigned long i_arg),
 * nvidia_open(struct inode *, struct file *), nvidia_close(same),
 * nvidia_mmap(struct file *, struct vm_area_struct *) (vm_start, vm_end: its first two
 * words on every kernel), nvidia_isr(int irq, void *), nvidia_isr_msix(same),
 * nvidia_isr_kthread_bh(int irq, void *), nvidia_isr_msix_kthread_bh(same),
 * uvm_parent_gpu_service_replayable_faults(uvm_parent_gpu_t *) and
 * uvm_parent_gpu_service_non_replayable_fault_buffer(same), both void. The same in
 * 535.288.01, 550.163.01, 570.195.03 and 580.105.08, but for UVM's two, named
 * uvm_gpu_service_replayable_faults and uvm_gpu_service_non_replayable_fault_buffer
 * (uvm_gpu_t *) before 570; nvidia_dev_xid is there from 575.
 */
struct nv_probe_def {
	enum nv_probe_kind kind;
	const char *func;
	bool ret;
	const char *fetch;
	const char *fetch_at_return;
	const char *fetch_plain;	/* kernels without user-memory fetches (before 5.5) */
	const char *old_name;		/* the function's name in drivers before 570 */
};

#define IOCTL_USER	"cmd=$arg2:x32 xfer_escape=+u0($arg3):x32 ctl_cmd=+u8($arg3):x32 " \
			"xfer_ctl_cmd=+u8(+u8($arg3)):x32"

static const struct nv_probe_def defs[] = {
	{ NVP_IOCTL, "nvidia_unlocked_ioctl", false, IOCTL_USER, NULL, "cmd=$arg2:x32", NULL },
	{ NVP_IOCTL_RET, "nvidia_unlocked_ioctl", true, "ret=$retval:s64",
	  "status=+u28($arg3):x32 xfer_status=+u28(+u8($arg3)):x32", NULL, false },
	{ NVP_OPEN, "nvidia_open", false, "", NULL, NULL, NULL },
	{ NVP_OPEN_RET, "nvidia_open", true, "ret=$retval:s32", NULL, NULL, NULL },
	{ NVP_CLOSE, "nvidia_close", false, "", NULL, NULL, NULL },
	{ NVP_CLOSE_RET, "nvidia_close", true, "ret=$retval:s32", NULL, NULL, NULL },
	{ NVP_MMAP, "nvidia_mmap", false, "start=+0($arg2):x64 end=+8($arg2):x64", NULL, NULL,
	  NULL },
	{ NVP_MMAP_RET, "nvidia_mmap", true, "ret=$retval:s32", NULL, NULL, NULL },
	{ NVP_ISR, "nvidia_isr", false, "irq=$arg1:s32", NULL, NULL, NULL },
	{ NVP_ISR_RET, "nvidia_isr", true, "ret=$retval:s32", NULL, NULL, NULL },
	{ NVP_ISR_MSIX, "nvidia_isr_msix", false, "irq=$arg1:s32", NULL, NULL, NULL },
	{ NVP_ISR_MSIX_RET, "nvidia_isr_msix", true, "ret=$retval:s32", NULL, NULL, NULL },
	{ NVP_BH, "nvidia_isr_kthread_bh", false, "irq=$arg1:s32", NULL, NULL, NULL },
	{ NVP_BH_RET, "nvidia_isr_kthread_bh", true, "ret=$retval:s32", NULL, NULL, NULL },
	{ NVP_BH_MSIX, "nvidia_isr_msix_kthread_bh", false, "irq=$arg1:s32", NULL, NULL, NULL },
	{ NVP_BH_MSIX_RET, "nvidia_isr_msix_kthread_bh", true, "ret=$retval:s32", NULL, NULL,
	  NULL },
	{ NVP_UVM_REPLAYABLE, "uvm_parent_gpu_service_replayable_faults", false, "gpu=$arg1:x64",
	  NULL, NULL, "uvm_gpu_service_replayable_faults" },
	{ NVP_UVM_REPLAYABLE_RET, "uvm_parent_gpu_service_replayable_faults", true, "", NULL,
	  NULL, "uvm_gpu_service_replayable_faults" },
	{ NVP_UVM_NON_REPLAYABLE, "uvm_parent_gpu_service_non_replayable_fault_buffer", false,
	  "gpu=$arg1:x64", NULL, NULL, "uvm_gpu_service_non_replayable_fault_buffer" },
	{ NVP_UVM_NON_REPLAYABLE_RET, "uvm_parent_gpu_service_non_replayable_fault_buffer", true,
	  "", NULL, NULL, "uvm_gpu_service_non_replayable_fault_buffer" },
};

#define NR_DEFS	(int)(sizeof(defs) / sizeof(defs[0]))

/*
 * One pass over /proc/kallsyms for @n functions: found[i] and, where it is a module's, the
 * module's name in modules[i] ("" built in). Returns how many were found.
 */
static int kallsyms_find(const char *const *funcs, int n, bool *found, char (*modules)[64])
{
	char line[512], name[256], mod[80];
	FILE *f = fopen("/proc/kallsyms", "re");
	int i, nr = 0;

	for (i = 0; i < n; i++)
		found[i] = false;
	while (f && nr < n && fgets(line, sizeof(line), f)) {
		mod[0] = '\0';
		if (sscanf(line, "%*s %*s %255s %79s", name, mod) < 1)
			continue;
		for (i = 0; i < n; i++) {
			if (found[i] || strcmp(name, funcs[i]))
				continue;
			found[i] = true;
			nr++;
			if (modules)
				snprintf(modules[i], sizeof(modules[i]), "%.*s",
					 mod[0] == '[' ? (int)strcspn(mod + 1, "]") : 0, mod + 1);
		}
	}
	if (f)
		fclose(f);
	return nr;
}

static int kallsyms_module(const char *func, char *module, size_t len)
{
	char mods[1][64];
	bool found;

	if (!kallsyms_find(&func, 1, &found, mods))
		return 0;
	if (module)
		snprintf(module, len, "%s", mods[0]);
	return 1;
}

int nv_probes_functions(struct nv_function *out, int max)
{
	const char *funcs[2 * NR_DEFS];
	int entry[NR_DEFS], old[NR_DEFS];
	bool found[2 * NR_DEFS];
	char mods[2 * NR_DEFS][64];
	int i, n = 0, nr = 0;

	for (i = 0; i < NR_DEFS; i++) {
		if (defs[i].ret || n == max)
			continue;
		entry[n] = i;
		funcs[nr++] = defs[i].func;
		old[n] = defs[i].old_name ? nr : -1;
		if (defs[i].old_name)
			funcs[nr++] = defs[i].old_name;
		n++;
	}
	kallsyms_find(funcs, nr, found, mods);
	for (i = 0; i < n; i++) {
		int at = 0;

		while (funcs[at] != defs[entry[i]].func)
			at++;
		if (!found[at] && old[i] >= 0 && found[old[i]])
			at = old[i];
		out[i].func = defs[entry[i]].func;
		out[i].found_as = at == old[i] ? funcs[at] : NULL;
		out[i].uvm = defs[entry[i]].old_name != NULL;
		out[i].present = found[at];
		snprintf(out[i].module, sizeof(out[i].module), "%s", found[at] ? mods[at] : "");
	}
	return n;
}

bool nv_driver_loaded(void)
{
	return kallsyms_module("nvidia_unlocked_ioctl", NULL, 0);
}

const char *nv_probes_unavailable(const char *tracing_dir)
{
	const char *why = kprobes_unavailable(tracing_dir);

	if (why)
		return why;
	if (!kallsyms_module("nvidia_unlocked_ioctl", NULL, 0))
		return "nvidia.ko is not loaded (no nvidia_unlocked_ioctl among the kernel's symbols)";
	return NULL;
}

static void note_missing(struct nv_probes *p, const struct nv_probe_def *d, const char *why)
{
	size_t n = strlen(p->missing);

	/* an entry and its return probe fail alike: one line per function */
	if (strstr(p->missing, d->func))
		return;
	snprintf(p->missing + n, sizeof(p->missing) - n, "%s%s (%s)", n ? "; " : "", d->func, why);
}

static struct tracefs_dynevent *create_one(struct nv_probes *p, const struct nv_probe_def *d,
					   struct gt_error *err)
{
	struct kprobe_def k = { nv_probe_event(d->kind), d->func, d->ret, d->fetch,
				d->fetch_at_return };
	struct tracefs_dynevent *ev;
	bool at_return;

	ev = kprobe_def_create(p->group, &k, &at_return, err);
	if (ev) {
		p->statuses |= at_return;
		p->user_fetch |= d->kind == NVP_IOCTL;
		return ev;
	}
	/* only where the new name is not there: its own refusal is the one to tell */
	if (d->old_name && !kallsyms_module(d->func, NULL, 0) && kallsyms_module(d->old_name, NULL, 0)) {
		k.func = d->old_name;
		return kprobe_def_create(p->group, &k, &at_return, err);
	}
	if (!d->fetch_plain)
		return NULL;
	k.fetch = d->fetch_plain;
	return kprobe_def_create(p->group, &k, &at_return, err);
}

int nv_probes_create(struct nv_probes *p, int pid, struct gt_error *err)
{
	int i;

	memset(p, 0, sizeof(*p));
	snprintf(p->group, sizeof(p->group), "%s%d%s", NV_PROBE_GROUP_PREFIX, pid,
		 pid_ns_group_tag());
	if (run_lock_live(err))
		return -1;
	kallsyms_module("nvidia_unlocked_ioctl", p->module, sizeof(p->module));
	p->events = calloc(NR_DEFS + 1, sizeof(*p->events));
	if (!p->events)
		return gt_error_set(err, ENOMEM, "out of memory defining the NVIDIA probes");
	for (i = 0; i < NR_DEFS; i++) {
		const struct nv_probe_def *d = &defs[i];
		struct gt_error perr = { 0 };
		struct tracefs_dynevent *ev = create_one(p, d, &perr);

		if (ev) {
			p->events[p->nr_events++] = ev;
			p->nr_defined++;
			continue;
		}
		if (d->kind == NVP_IOCTL) {
			gt_error_set(err, perr.errnum, "%s", perr.msg);
			nv_probes_remove(p, NULL);
			return -1;
		}
		if (!kallsyms_module(d->func, NULL, 0) &&
		    !(d->old_name && kallsyms_module(d->old_name, NULL, 0)))
			note_missing(p, d, d->old_name ? "nvidia-uvm is not loaded" : "not in this driver build");
		else
			note_missing(p, d, perr.msg);
	}
	return 0;
}

int nv_probes_enable(struct nv_probes *p, struct tracefs_instance *inst, struct gt_error *err)
{
	if (tracefs_event_enable(inst, p->group, NULL))
		return gt_error_set(err, errno ? errno : EINVAL,
				    "cannot enable the NVIDIA probes (%s): %s", p->group,
				    strerror(errno ? errno : EINVAL));
	return 0;
}

int nv_probes_remove(struct nv_probes *p, struct gt_error *err)
{
	int ret = kprobe_defs_remove(p->events, p->nr_events, p->group, err);

	p->nr_events = 0;
	free(p->events);
	p->events = NULL;
	return ret;
}
