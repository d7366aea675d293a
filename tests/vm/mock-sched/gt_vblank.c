// SPDX-License-Identifier: GPL-2.0
/*
 * gt_vblank: a display for the gpu-trace lab, as vkms is one (Debian builds no
 * vkms): a DRM device with one CRTC on one primary plane whose vblank
 * interrupt is an hrtimer at 60 Hz while someone waits on it. Everything else
 * is the DRM core's own vblank code: drm_crtc_handle_vblank() counts the
 * vblank (drm_vblank_event), DRM_IOCTL_WAIT_VBLANK with an event queues one
 * (drm_vblank_event_queued) and the vblank that reaches its sequence delivers
 * it (drm_vblank_event_delivered), as on a real display driver. The lab's
 * vblank-client waits on it through the card node.
 */
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/hrtimer.h>
#include <drm/drm_crtc.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_fourcc.h>
#include <drm/drm_ioctl.h>
#include <drm/drm_mode_config.h>
#include <drm/drm_plane.h>
#include <drm/drm_vblank.h>
#include "compat.h"

#define VBLANK_NS	16666667	/* 60 Hz */

static struct platform_device *pdev;
static struct drm_device *drm;
static struct drm_crtc crtc;
static struct drm_plane plane;
static struct hrtimer vblank_timer;
static bool vblank_on;

/* the display's vblank interrupt, while the DRM core has it enabled */
static enum hrtimer_restart vblank_fire(struct hrtimer *t)
{
	if (!READ_ONCE(vblank_on))
		return HRTIMER_NORESTART;
	drm_crtc_handle_vblank(&crtc);
	hrtimer_forward_now(t, ns_to_ktime(VBLANK_NS));
	return HRTIMER_RESTART;
}

static int enable_vblank(struct drm_crtc *c)
{
	WRITE_ONCE(vblank_on, true);
	hrtimer_start(&vblank_timer, ns_to_ktime(VBLANK_NS), HRTIMER_MODE_REL);
	return 0;
}

/* under the DRM core's spinlocks, maybe in the timer's own interrupt: no waiting */
static void disable_vblank(struct drm_crtc *c)
{
	WRITE_ONCE(vblank_on, false);
	hrtimer_try_to_cancel(&vblank_timer);
}

static const struct drm_crtc_funcs crtc_funcs = {
	.destroy = drm_crtc_cleanup,
	.enable_vblank = enable_vblank,
	.disable_vblank = disable_vblank,
};

static const struct drm_plane_funcs plane_funcs = {
	.destroy = drm_plane_cleanup,
};

static const struct drm_mode_config_funcs mode_config_funcs = {
};

static const u32 formats[] = { DRM_FORMAT_XRGB8888 };

static const struct file_operations fops = {
	.owner = THIS_MODULE,
	.open = drm_open,
	.release = drm_release,
	.unlocked_ioctl = drm_ioctl,
	.compat_ioctl = drm_compat_ioctl,
	.poll = drm_poll,
	.read = drm_read,
	.llseek = noop_llseek,
#ifdef FOP_UNSIGNED_OFFSET
	.fop_flags = FOP_UNSIGNED_OFFSET,
#endif
};

static const struct drm_driver driver = {
	.driver_features = DRIVER_MODESET,
	.fops = &fops,
	.name = "gt_vblank",
	.desc = "gpu-trace lab display (vblanks at 60 Hz)",
#ifdef GT_DRM_DRIVER_DATE
	.date = "20261129",
#endif
	.major = 1,
};

static int display_init(struct drm_device *dev)
{
	int ret = drmm_mode_config_init(dev);

	if (ret)
		return ret;
	dev->mode_config.min_width = 64;
	dev->mode_config.min_height = 64;
	dev->mode_config.max_width = 4096;
	dev->mode_config.max_height = 4096;
	dev->mode_config.funcs = &mode_config_funcs;
	ret = drm_universal_plane_init(dev, &plane, 1, &plane_funcs, formats, ARRAY_SIZE(formats),
				       NULL, DRM_PLANE_TYPE_PRIMARY, NULL);
	if (ret)
		return ret;
	ret = drm_crtc_init_with_planes(dev, &crtc, &plane, NULL, &crtc_funcs, NULL);
	if (ret)
		return ret;
	return drm_vblank_init(dev, 1);
}

static void unregister(void)
{
	if (drm) {
		drm_dev_unregister(drm);
		/* off as a display driver's disable leaves it: the core's release warns otherwise */
		drm_crtc_vblank_off(&crtc);
		drm_dev_put(drm);
		drm = NULL;
	}
	WRITE_ONCE(vblank_on, false);
	hrtimer_cancel(&vblank_timer);
	if (pdev)
		platform_device_unregister(pdev);
	pdev = NULL;
}

static int __init gt_vblank_init(void)
{
	struct drm_device *dev;
	int ret;

#ifdef GT_HRTIMER_SETUP
	hrtimer_setup(&vblank_timer, vblank_fire, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
#else
	hrtimer_init(&vblank_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	vblank_timer.function = vblank_fire;
#endif
	pdev = platform_device_register_simple("gt_vblank", -1, NULL, 0);
	if (IS_ERR(pdev)) {
		ret = PTR_ERR(pdev);
		pdev = NULL;
		return ret;
	}
	dev = drm_dev_alloc(&driver, &pdev->dev);
	if (IS_ERR(dev)) {
		unregister();
		return PTR_ERR(dev);
	}
	ret = display_init(dev);
	if (!ret)
		ret = drm_dev_register(dev, 0);
	if (ret) {
		drm_dev_put(dev);
		unregister();
		return ret;
	}
	drm = dev;
	pr_info("gt_vblank: card%d, crtc %u at 60 Hz\n", dev->primary->index, crtc.base.id);
	return 0;
}

static void __exit gt_vblank_exit(void)
{
	unregister();
}

module_init(gt_vblank_init);
module_exit(gt_vblank_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("gpu-trace lab: a display whose vblanks the DRM core counts and delivers");
