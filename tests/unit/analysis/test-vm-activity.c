// SPDX-License-Identifier: GPL-2.0
/*
 * amdgpu's VM events added up: address space by process (past VM_PIDS in
 * "other"), mappings, VMIDs and flushes by ring (past VM_RINGS in "other").
 */
#include <stdio.h>
#include <string.h>

#include "../../../lib/analysis/vm-activity.h"
#include "../unit.h"

static struct gpu_event vm_event(enum gpu_event_kind kind, unsigned long long ts)
{
	struct gpu_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.kind = kind;
	ev.ts = ts;
	return ev;
}

static void test_updates_and_maps(void)
{
	struct vm_activity v;
	struct gpu_event ev;

	memset(&v, 0, sizeof(v));
	ev = vm_event(GEV_VM_UPDATE_PTES, 10);
	ev.vm_pid = 4242;
	ev.va_start = 0x100000;
	ev.va_last = 0x100200;	/* end: one past the last page */
	vm_activity_add(&v, &ev);
	ev.ts = 20;
	ev.va_start = 0x200000;
	ev.va_last = 0x200000;	/* empty: counted, no bytes */
	vm_activity_add(&v, &ev);
	ev = vm_event(GEV_VM_BO_MAP, 30);
	ev.va_start = 0x100000;
	ev.va_last = 0x1001ff;	/* last: the last page itself */
	vm_activity_add(&v, &ev);
	ev = vm_event(GEV_VM_BO_UNMAP, 40);
	ev.va_start = 5;
	ev.va_last = 4;		/* the wrong way round: no bytes */
	vm_activity_add(&v, &ev);
	ev = vm_event(GEV_AMDGPU_OTHER, 50);
	vm_activity_add(&v, &ev);
	CU_ASSERT_EQUAL(v.updates, 2);
	CU_ASSERT_EQUAL(v.updated_bytes, 512 * VM_PAGE);
	CU_ASSERT_EQUAL(v.nr_pids, 1);
	CU_ASSERT_EQUAL(v.pids[0].pid, 4242);
	CU_ASSERT_EQUAL(v.pids[0].updates, 2);
	CU_ASSERT_EQUAL(v.maps, 1);
	CU_ASSERT_EQUAL(v.mapped_bytes, 2 << 20);
	CU_ASSERT_EQUAL(v.unmaps, 1);
	CU_ASSERT_EQUAL(v.unmapped_bytes, 0);
	CU_ASSERT_EQUAL(v.first_ts, 10);
	CU_ASSERT_EQUAL(v.last_ts, 40);
	CU_ASSERT_EQUAL(vm_activity_events(&v), 4);
}

static void test_bounded_tables(void)
{
	struct vm_activity v;
	struct gpu_event ev;
	int i;

	memset(&v, 0, sizeof(v));
	for (i = 0; i < VM_PIDS + 3; i++) {
		ev = vm_event(GEV_VM_UPDATE_PTES, 1);
		ev.vm_pid = 1000 + i;
		ev.va_last = 1;
		vm_activity_add(&v, &ev);
	}
	CU_ASSERT_EQUAL(v.nr_pids, VM_PIDS);
	CU_ASSERT_EQUAL(v.other_pid_updates, 3);
	CU_ASSERT_EQUAL(v.other_pid_bytes, 3 * VM_PAGE);
	for (i = 0; i < VM_RINGS + 2; i++) {
		ev = vm_event(i % 2 ? GEV_VM_FLUSH : GEV_VM_GRAB_ID, 2);
		snprintf(ev.ring, sizeof(ev.ring), "ring%d", i);
		ev.needs_flush = true;
		vm_activity_add(&v, &ev);
	}
	CU_ASSERT_EQUAL(v.nr_rings, VM_RINGS);
	CU_ASSERT_EQUAL(v.other_ring_grabs, 1);
	CU_ASSERT_EQUAL(v.other_ring_flushes, 1);
	CU_ASSERT_EQUAL(v.grabs, (VM_RINGS + 2) / 2);
	CU_ASSERT_EQUAL(v.grabs_flushing, v.grabs);
	CU_ASSERT_EQUAL(v.flushes, (VM_RINGS + 2) / 2);
	CU_ASSERT_EQUAL(v.rings[0].grabs, 1);
	CU_ASSERT_EQUAL(v.rings[1].flushes, 1);
}

void suite_vm_activity(void)
{
	CU_pSuite s = CU_add_suite("vm-activity", NULL, NULL);

	CU_add_test(s, "updates by process, mappings", test_updates_and_maps);
	CU_add_test(s, "processes and rings past the tables", test_bounded_tables);
}
