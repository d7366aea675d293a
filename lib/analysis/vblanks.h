/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_VBLANKS_H
#define GT_VBLANKS_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/latency-stats.h"

/*
 * Display timing from the DRM core's vblank events (drm_vblank.c), per CRTC:
 *  - drm_vblank_event: a vblank the interrupt handled (hardirq), with the
 *    CRTC's vblank count (seq) and the vblank's own timestamp (time, ktime):
 *    consecutive ones give the refresh period; a step of more than one in seq
 *    is vblanks not seen (the interrupt is off while nobody waits, or they
 *    were lost);
 *  - drm_vblank_event_queued: a client asked for an event at vblank seq
 *    (DRM_IOCTL_WAIT_VBLANK with an event; a page flip's event, armed by the
 *    driver, has none);
 *  - drm_vblank_event_delivered: the event sent to the client with the vblank
 *    it came at, in the same interrupt before that vblank's drm_vblank_event.
 *    Matched with the smallest vblank its client asked for on the CRTC that
 *    it does not precede: a later vblank than asked for missed its vblank(s);
 *    none such (a page flip's) is counted apart. The delay from the vblank
 *    (its own timestamp where the trace clock is mono, else its record) to
 *    the delivery is the event's latency.
 * Page flips: a flip's event is delivered with none queued; one with no file
 * (NULL) is the DRM core's own, made for an atomic commit that asked for none
 * (fbdev's damage flushes, a mode set): counted apart, never a flip. Where the file has
 * the workload's ioctls (record's CPU side), each is paired with the
 * DRM_IOCTL_MODE_PAGE_FLIP that asked for it, in the order they were asked (a
 * legacy flip has one pending per CRTC: a second is refused, EBUSY): the
 * oldest ask not yet paired that entered before the event. From the ask's
 * return the flip was due at the display's next vblank; the vblanks it missed
 * are the count's steps from the display's last vblank by then to the one the
 * event came at, less one (the records since, where the display had none or
 * the event no count past it); an event before its ask returned missed none.
 * Lost events end every pairing pending. Past VBLANK_FLIP_ASKS pending, the
 * oldest returned is given up (unpaired); while every one is still in its
 * ioctl, a new ask is not followed. The pairing is in the order asked:
 * exact for one client flipping one CRTC at a time, an event each; atomic
 * commits (DRM_IOCTL_MODE_ATOMIC) are not paired (whether one asked for an
 * event is in its flags, which the trace does not hold), and their events,
 * like DRM_IOCTL_CRTC_QUEUE_SEQUENCE's, take a pending ask.
 * The CRTC index is the device's, and the events name no device: two devices'
 * CRTC 0 (a GPU's and a virtual display's, whose vblanks are a timer's since
 * 6.17) interleave two counts. Each count is a display of its own: a vblank
 * joins the display of its index whose count it continues by the smallest
 * step; one that continues none starts another (another device's, or its count
 * reset), up to VBLANK_MAX_DISPLAYS an index, then goes back on the first.
 * An event (queued, delivered) goes to the display whose count is nearest.
 */

#define VBLANK_MAX_CRTCS	16	/* (CRTC, display) rows; past them, "(more CRTCs)" */
#define VBLANK_MAX_DISPLAYS	4	/* counts told apart on one CRTC index */
#define VBLANK_MAX_WAITERS	256	/* (client, CRTC) pairs with events pending */
#define VBLANK_WAITER_EVENTS	16	/* events pending per pair */
#define VBLANK_FLIP_ASKS	16	/* page flips asked for, their events not yet come */

struct vblank_crtc {
	int crtc;			/* -1: every CRTC past VBLANK_MAX_CRTCS */
	int display;			/* 0: the index's first count; 1..: another's */
	uint64_t vblanks;		/* drm_vblank_event records */
	uint64_t first_seq, last_seq;
	uint64_t last_time;		/* the last vblank's own timestamp (ns, ktime) */
	bool high_prec;			/* the driver's timestamps are the hardware's */
	uint64_t gaps, unseen;		/* steps of more than one, and the vblanks in them */
	struct latency_stats period;	/* ns between consecutive vblanks (seq + 1) */
	uint64_t queued, delivered;	/* events */
	uint64_t late, late_vblanks;	/* delivered after the vblank asked for, by how many */
	uint64_t unmatched;		/* delivered with none queued in the file (page flips) */
	uint64_t core_events;		/* of them, the core's own (no file: a commit that asked for none) */
	struct latency_stats deliver;	/* ns from the vblank to the delivery */
	/*
	 * page flips paired with their ask (flip_present.count): ns from the ask's return to
	 * the flip's event; of them presented after the vblank due, by how many vblanks
	 */
	struct latency_stats flip_present;
	uint64_t flips_late, flips_late_vblanks;
	uint64_t backwards;		/* went back past VBLANK_MAX_DISPLAYS counts */
};

/*
 * What the join found, for the outputs: its decode state (the clients' events
 * pending, each CRTC's latest vblanks) is vblanks.c's alone.
 */
struct vblanks {
	uint64_t records;
	struct vblank_crtc crtcs[VBLANK_MAX_CRTCS + 1];
	int nr_crtcs;
	uint64_t untracked;		/* queued events past VBLANK_MAX_WAITERS/_EVENTS */
	uint64_t flip_asks;		/* DRM_IOCTL_MODE_PAGE_FLIPs that returned 0 */
	uint64_t flip_asks_unpaired;	/* of them, no flip's event came (or given up past VBLANK_FLIP_ASKS) */
	/* the last delivery, for an output reading the same record: late by how many, matched */
	uint64_t last_late;
	bool last_matched;
	/* ... and a page flip's: paired with its ask, the vblanks it missed */
	bool last_flip_asked;
	uint64_t last_flip_late;
	int last_display;		/* the record just read: its CRTC's display */
};

/**
 * vblank_refresh_hz - a CRTC's refresh rate from its median period
 * @c: one of vblanks_of()'s CRTCs (its period's percentiles are computed in place)
 *
 * Return: in Hz; 0 when unknown
 */
double vblank_refresh_hz(struct vblank_crtc *c);

struct analysis;
/**
 * vblanks_of - what the vblank join (analysis-joins.h) found in @a
 * @a: the analysis, after analysis_init()
 *
 * Return: its CRTCs and counts, owned by @a (valid until analysis_close()); not const,
 * as reading a percentile of its latency_stats computes it in place; NULL before
 * analysis_init()
 */
struct vblanks *vblanks_of(const struct analysis *a);

#endif
