// SPDX-License-Identifier: GPL-2.0
/*
 * flip-client [FLIPS] [LATE_EVERY] [LATE_MS]: a display client on vkms, as a
 * compositor is: it sets the first connector's preferred mode on the first CRTC
 * with a dumb buffer, then page-flips FLIPS times between two buffers, each
 * flip asked for (DRM_IOCTL_MODE_PAGE_FLIP with an event) as soon as the last
 * one's event is read, so each is due at the next vblank. Every LATE_EVERY-th
 * flip goes to a third buffer, a vgem one imported through dma-buf whose write
 * fence (VGEM_FENCE_ATTACH) the client signals only LATE_MS after asking: the
 * DRM core's commit waits for that fence (the buffer's implicit fence, as a
 * frame still being rendered holds it), and the flip is presented vblanks
 * later than it was due: a planted miss, with the real atomic and vblank code.
 *
 * For each flip it prints the CRTC's vblank count just before and just after
 * the ask (DRM_IOCTL_WAIT_VBLANK, relative 0: the count now) and the vblank it
 * was presented at (the event's sequence), for the lab's check: it missed
 * between got - after - 1 and got - before - 1 vblanks.  The uapi structs are
 * spelled out as include/uapi/drm/drm.h, drm_mode.h and vgem_drm.h have them.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <linux/types.h>

#include "drm-open.h"

struct mode_card_res {
	__u64 fb_id_ptr, crtc_id_ptr, connector_id_ptr, encoder_id_ptr;
	__u32 count_fbs, count_crtcs, count_connectors, count_encoders;
	__u32 min_width, max_width, min_height, max_height;
};

struct mode_modeinfo {
	__u32 clock;
	__u16 hdisplay, hsync_start, hsync_end, htotal, hskew;
	__u16 vdisplay, vsync_start, vsync_end, vtotal, vscan;
	__u32 vrefresh, flags, type;
	char name[32];
};

struct mode_get_connector {
	__u64 encoders_ptr, modes_ptr, props_ptr, prop_values_ptr;
	__u32 count_modes, count_props, count_encoders;
	__u32 encoder_id, connector_id, connector_type, connector_type_id;
	__u32 connection, mm_width, mm_height, subpixel, pad;
};

struct mode_crtc {
	__u64 set_connectors_ptr;
	__u32 count_connectors, crtc_id, fb_id, x, y, gamma_size, mode_valid;
	struct mode_modeinfo mode;
};

struct mode_fb_cmd {
	__u32 fb_id, width, height, pitch, bpp, depth, handle;
};

struct mode_crtc_page_flip {
	__u32 crtc_id, fb_id, flags, reserved;
	__u64 user_data;
};

struct wait_vblank {
	__u32 type, sequence;
	long tval_sec, tval_usec;	/* the reply's; the request's signal is one long */
};

struct event_vblank {
	__u32 type, length;
	__u64 user_data;
	__u32 tv_sec, tv_usec, sequence, crtc_id;
};

struct vgem_fence_attach {
	__u32 handle, flags, out_fence, pad;
};

struct vgem_fence_signal {
	__u32 fence, flags;
};

#define MODE_GETRESOURCES	_IOWR(DRM_BASE, 0xA0, struct mode_card_res)
#define MODE_SETCRTC		_IOWR(DRM_BASE, 0xA2, struct mode_crtc)
#define MODE_GETCONNECTOR	_IOWR(DRM_BASE, 0xA7, struct mode_get_connector)
#define MODE_ADDFB		_IOWR(DRM_BASE, 0xAE, struct mode_fb_cmd)
#define MODE_PAGE_FLIP		_IOWR(DRM_BASE, 0xB0, struct mode_crtc_page_flip)
#define WAIT_VBLANK		_IOWR(DRM_BASE, 0x3a, struct wait_vblank)
#define VGEM_FENCE_ATTACH	_IOWR(DRM_BASE, DRM_COMMAND_BASE + 0x1, struct vgem_fence_attach)
#define VGEM_FENCE_SIGNAL	_IOW(DRM_BASE, DRM_COMMAND_BASE + 0x2, struct vgem_fence_signal)
#define PAGE_FLIP_EVENT		0x01
#define EVENT_FLIP_COMPLETE	0x02
#define CONNECTED		1
#define MODE_TYPE_PREFERRED	(1 << 3)
#define VGEM_FENCE_WRITE	0x1

static int fail(const char *what)
{
	printf("flip-client: %s: %s\n", what, strerror(errno));
	return 1;
}

/* the CRTC's vblank count now (relative 0, no event), or -1 */
static long long vblank_now(int fd)
{
	struct wait_vblank w = { .type = 0x1, .sequence = 0 };

	return ioctl(fd, WAIT_VBLANK, &w) ? -1 : (long long)w.sequence;
}

/* a framebuffer of @w x @h on @handle (pitch @pitch), or 0 */
static __u32 add_fb(int fd, __u32 handle, __u32 w, __u32 h, __u32 pitch)
{
	struct mode_fb_cmd f = { .width = w, .height = h, .pitch = pitch, .bpp = 32, .depth = 24,
				 .handle = handle };

	return ioctl(fd, MODE_ADDFB, &f) ? 0 : f.fb_id;
}

static __u32 dumb_fb(int fd, __u32 w, __u32 h)
{
	struct mode_create_dumb d = { .height = h, .width = w, .bpp = 32 };

	return ioctl(fd, MODE_CREATE_DUMB, &d) ? 0 : add_fb(fd, d.handle, w, h, d.pitch);
}

int main(int argc, char **argv)
{
	int flips = argc > 1 ? atoi(argv[1]) : 60, late_every = argc > 2 ? atoi(argv[2]) : 10;
	int late_ms = argc > 3 ? atoi(argv[3]) : 40, fd, vgem, i, planted = 0, missed = 0;
	__u32 crtcs[8], conns[8], fbs[2], late_fb = 0, vgem_handle = 0;
	struct mode_card_res res = { 0 };
	struct mode_get_connector c = { 0 };
	struct mode_modeinfo modes[64], *mode = NULL;
	struct mode_crtc set = { 0 };
	char path[64], vpath[64], seen[512];

	fd = drm_open_driver("card", 0, 15, "vkms", path, sizeof(path), seen, sizeof(seen));
	if (fd < 0) {
		printf("flip-client: no vkms device in /dev/dri:%s\n", seen);
		return 2;
	}
	res.crtc_id_ptr = (uintptr_t)crtcs;
	res.connector_id_ptr = (uintptr_t)conns;
	res.count_crtcs = res.count_connectors = 8;
	if (ioctl(fd, MODE_GETRESOURCES, &res) || !res.count_crtcs || !res.count_connectors)
		return fail("MODE_GETRESOURCES");
	c.connector_id = conns[0];
	if (ioctl(fd, MODE_GETCONNECTOR, &c))	/* probes the modes */
		return fail("MODE_GETCONNECTOR");
	c.count_modes = c.count_modes > 64 ? 64 : c.count_modes;
	c.modes_ptr = (uintptr_t)modes;
	c.count_props = c.count_encoders = 0;
	if (ioctl(fd, MODE_GETCONNECTOR, &c) || c.connection != CONNECTED || !c.count_modes)
		return fail("MODE_GETCONNECTOR (modes)");
	/* more modes than the array: the kernel copied none, only said how many */
	if (c.count_modes > 64) {
		errno = E2BIG;
		return fail("MODE_GETCONNECTOR (more than 64 modes)");
	}
	for (i = 0; i < (int)c.count_modes && !mode; i++)
		if (modes[i].type & MODE_TYPE_PREFERRED)
			mode = &modes[i];
	if (!mode)
		mode = &modes[0];
	fbs[0] = dumb_fb(fd, mode->hdisplay, mode->vdisplay);
	fbs[1] = dumb_fb(fd, mode->hdisplay, mode->vdisplay);
	if (!fbs[0] || !fbs[1])
		return fail("dumb framebuffers");

	/* the late buffer: vgem's, imported, its write fence the client's to signal */
	vgem = drm_open_driver("card", 0, 15, "vgem", vpath, sizeof(vpath), seen, sizeof(seen));
	if (vgem >= 0) {
		struct mode_create_dumb d = { .height = mode->vdisplay, .width = mode->hdisplay,
					      .bpp = 32 };
		struct prime_handle p = { .flags = O_CLOEXEC | O_RDWR };

		if (ioctl(vgem, MODE_CREATE_DUMB, &d))
			return fail("vgem dumb buffer");
		p.handle = vgem_handle = d.handle;
		if (ioctl(vgem, PRIME_HANDLE_TO_FD, &p))
			return fail("vgem export");
		p.handle = 0;
		if (ioctl(fd, PRIME_FD_TO_HANDLE, &p))
			return fail("vkms import of the vgem buffer");
		late_fb = add_fb(fd, p.handle, mode->hdisplay, mode->vdisplay, d.pitch);
		if (!late_fb)
			return fail("the vgem buffer's framebuffer");
	} else {
		printf("flip-client: no vgem device (no late flips):%s\n", seen);
	}

	set.set_connectors_ptr = (uintptr_t)&conns[0];
	set.count_connectors = 1;
	set.crtc_id = crtcs[0];
	set.fb_id = fbs[0];
	set.mode_valid = 1;
	set.mode = *mode;
	if (ioctl(fd, MODE_SETCRTC, &set))
		return fail("MODE_SETCRTC");
	printf("flip-client: pid=%d %s crtc=%u mode=%s@%u\n", (int)getpid(), path, crtcs[0],
	       mode->name, mode->vrefresh);

	for (i = 0; i < flips; i++) {
		bool late = late_fb && late_every > 0 && i % late_every == late_every - 1;
		struct mode_crtc_page_flip f = { .crtc_id = crtcs[0], .flags = PAGE_FLIP_EVENT,
						 .user_data = (__u64)i + 1 };
		struct vgem_fence_attach a = { .handle = vgem_handle, .flags = VGEM_FENCE_WRITE };
		struct event_vblank e;
		long long before, after;
		ssize_t n;

		f.fb_id = late ? late_fb : fbs[i % 2];
		if (late && ioctl(vgem, VGEM_FENCE_ATTACH, &a))
			return fail("VGEM_FENCE_ATTACH");
		before = vblank_now(fd);
		if (ioctl(fd, MODE_PAGE_FLIP, &f))
			return fail("MODE_PAGE_FLIP");
		after = vblank_now(fd);
		if (late) {
			struct vgem_fence_signal s = { .fence = a.out_fence };
			struct timespec ts = { late_ms / 1000, (late_ms % 1000) * 1000000L };

			nanosleep(&ts, NULL);
			if (ioctl(vgem, VGEM_FENCE_SIGNAL, &s))
				return fail("VGEM_FENCE_SIGNAL");
			planted++;
		}
		n = read(fd, &e, sizeof(e));
		if (n != (ssize_t)sizeof(e) || e.type != EVENT_FLIP_COMPLETE || e.user_data != f.user_data) {
			printf("flip-client: read %zd bytes, event type %u, flip %llu\n", n, e.type,
			       (unsigned long long)e.user_data);
			return 1;
		}
		if (before < 0 || after < 0)
			return fail("WAIT_VBLANK (the count now)");
		if ((long long)e.sequence - after - 1 > 0)
			missed++;
		printf("flip-client: flip=%d before=%lld after=%lld got=%u late=%d\n", i + 1, before,
		       after, e.sequence, late);
	}
	printf("flip-client: %d flips, %d planted late (%d ms), %d presented after the vblank due\n",
	       flips, planted, late_ms, missed);
	close(fd);
	return 0;
}
