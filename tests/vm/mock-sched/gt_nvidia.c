// SPDX-License-Identifier: GPL-2.0
/*
 * gt_nvidia: a stand-in for nvidia.ko in the lab, which has no NVIDIA GPU.
 * It defines the functions gpu-trace probes on the real driver with their
 * names and signatures (NVIDIA's open-gpu-kernel-modules 595.45.04,
 * kernel-open/nvidia/nv.c and nv-mmap.c) and the nvidia:nvidia_dev_xid
 * tracepoint with the real one's fields (nv-tracepoint.h), and answers the
 * driver's ioctl numbering on /dev/gt_nvidia:
 *   _IOWR('F', escape, size); NV_ESC_RM_CONTROL (0x2A) takes an
 *   NVOS54_PARAMETERS (cmd at 8, status at 28), NV_ESC_IOCTL_XFER_CMD (211)
 *   an nv_ioctl_xfer_t naming the real escape and its parameters.
 * What it does is the ground truth the lab checks a recording against: an
 * RM control sleeps its flags' microseconds and answers the status its
 * hClient asks for; every call, interrupt and Xid is told in the kernel's log.
 *   echo "N US" > /sys/kernel/debug/gt_nvidia/irq: N interrupts, each with
 *     its bottom half US microseconds later (nvidia_isr, nvidia_isr_kthread_bh)
 *   echo "CODE text" > /sys/kernel/debug/gt_nvidia/xid: an Xid
 *   echo "N US" > /sys/kernel/debug/gt_nvidia/uvm: N passes of nvidia-uvm's
 *     replayable fault service, each US microseconds, then one of the
 *     non-replayable fault buffer's taking US/2 (kernel-open/nvidia-uvm's
 *     uvm_parent_gpu_service_*; the real ones run in UVM's bottom half)
 */
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/ktime.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>

#include "compat.h"
#include "gt_nvidia_abi.h"

#define CREATE_TRACE_POINTS
#include "gt_nvidia_trace.h"

#define GT_NVIDIA_DEV		"0000:c1:00.0"	/* the Xids' device, as pci_name() prints it */
#define GT_IRQ			77

static struct dentry *debug_dir;
static struct hrtimer irq_timer;
static struct delayed_work bh_work;
static int irqs_left;
static unsigned int bh_delay_us;
static atomic_t bh_pending;		/* interrupts whose bottom half has not run */
static DEFINE_SPINLOCK(irq_lock);

/*
 * The probed functions, as nv.c declares them; noipa keeps each one whole,
 * called for real (no inlining, no constant-propagated clone the calls would
 * take instead), as a probe on the real driver finds it.
 */
#define PROBED __attribute__((__noipa__))
int nvidia_open(struct inode *inode, struct file *file);
int nvidia_close(struct inode *inode, struct file *file);
long nvidia_unlocked_ioctl(struct file *file, unsigned int cmd, unsigned long i_arg);
int nvidia_mmap(struct file *file, struct vm_area_struct *vma);
irqreturn_t nvidia_isr(int irq, void *arg);
irqreturn_t nvidia_isr_msix(int irq, void *arg);
irqreturn_t nvidia_isr_kthread_bh(int irq, void *data);
irqreturn_t nvidia_isr_msix_kthread_bh(int irq, void *data);
void uvm_parent_gpu_service_replayable_faults(void *parent_gpu);
void uvm_parent_gpu_service_non_replayable_fault_buffer(void *parent_gpu);

PROBED int nvidia_open(struct inode *inode, struct file *file)
{
	pr_info("gt_nvidia: open pid=%d\n", current->tgid);
	return 0;
}

PROBED int nvidia_close(struct inode *inode, struct file *file)
{
	pr_info("gt_nvidia: close pid=%d\n", current->tgid);
	return 0;
}

static long rm_control(unsigned long uarg, size_t size)
{
	struct nvos54 p;
	u64 t0;

	if (size != sizeof(p) || copy_from_user(&p, (void __user *)uarg, sizeof(p)))
		return -EINVAL;
	t0 = ktime_get_ns();
	if (p.flags)
		usleep_range(p.flags, p.flags + 10);
	p.status = p.hClient;	/* the client says which answer it wants */
	if (copy_to_user((void __user *)uarg, &p, sizeof(p)))
		return -EFAULT;
	pr_info("gt_nvidia: control pid=%d cmd=0x%x status=0x%x slept_us=%u took_ns=%llu\n",
		current->tgid, p.cmd, p.status, p.flags, ktime_get_ns() - t0);
	return 0;
}

PROBED long nvidia_unlocked_ioctl(struct file *file, unsigned int cmd, unsigned long i_arg)
{
	unsigned int nr = _IOC_NR(cmd);
	size_t size = _IOC_SIZE(cmd);
	struct nv_ioctl_xfer x;

	if (_IOC_TYPE(cmd) != NV_IOCTL_MAGIC)
		return -ENOTTY;
	if (nr == NV_ESC_IOCTL_XFER_CMD) {
		if (size != sizeof(x) || copy_from_user(&x, (void __user *)i_arg, sizeof(x)))
			return -EINVAL;
		nr = x.cmd;
		size = x.size;
		i_arg = (unsigned long)x.ptr;
	}
	switch (nr) {
	case NV_ESC_RM_CONTROL:
		return rm_control(i_arg, size);
	case NV_ESC_RM_ALLOC:
		usleep_range(200, 210);
		break;
	case NV_ESC_RM_FREE:
		usleep_range(100, 110);
		break;
	case NV_ESC_RM_MAP_MEMORY:
	case NV_ESC_CARD_INFO:
		break;
	default:
		return -EINVAL;
	}
	pr_info("gt_nvidia: escape pid=%d nr=0x%x\n", current->tgid, nr);
	return 0;
}

PROBED int nvidia_mmap(struct file *file, struct vm_area_struct *vma)
{
	pr_info("gt_nvidia: mmap pid=%d len=%lu\n", current->tgid, vma->vm_end - vma->vm_start);
	return -ENODEV;	/* nothing to map: the call is what is traced */
}

PROBED irqreturn_t nvidia_isr(int irq, void *arg)
{
	return IRQ_WAKE_THREAD;
}

PROBED irqreturn_t nvidia_isr_msix(int irq, void *arg)
{
	return nvidia_isr(irq, arg);
}

PROBED irqreturn_t nvidia_isr_kthread_bh(int irq, void *data)
{
	return IRQ_HANDLED;
}

PROBED irqreturn_t nvidia_isr_msix_kthread_bh(int irq, void *data)
{
	return nvidia_isr_kthread_bh(irq, data);
}

static unsigned int uvm_us;

PROBED void uvm_parent_gpu_service_replayable_faults(void *parent_gpu)
{
	usleep_range(uvm_us, uvm_us + 10);
}

PROBED void uvm_parent_gpu_service_non_replayable_fault_buffer(void *parent_gpu)
{
	usleep_range(uvm_us / 2, uvm_us / 2 + 10);
}

static ssize_t uvm_write(struct file *f, const char __user *ubuf, size_t count, loff_t *pos)
{
	static int parent_gpu;	/* a pointer the probes read as the GPU's */
	char buf[32];
	int n, i;
	unsigned int us;

	if (count >= sizeof(buf) || copy_from_user(buf, ubuf, count))
		return -EINVAL;
	buf[count] = '\0';
	if (sscanf(buf, "%d %u", &n, &us) != 2 || n <= 0 || n > 100 || us > 20000)
		return -EINVAL;
	uvm_us = us;
	for (i = 0; i < n; i++)
		uvm_parent_gpu_service_replayable_faults(&parent_gpu);
	uvm_parent_gpu_service_non_replayable_fault_buffer(&parent_gpu);
	pr_info("gt_nvidia: uvm passes=%d us=%u\n", n, us);
	return count;
}

/*
 * One bottom half per interrupt, as the driver runs them: a delayed work
 * still pending when the next interrupt schedules it (a guest's workqueue
 * held up 20 ms on a loaded host) runs once, so it runs every one owed.
 */
static void bottom_half(struct work_struct *w)
{
	while (atomic_add_unless(&bh_pending, -1, 0)) {
		u64 t = ktime_get_ns();

		nvidia_isr_kthread_bh(GT_IRQ, NULL);
		pr_info("gt_nvidia: bh irq=%d t=%llu\n", GT_IRQ, t);
	}
}

/* an interrupt: the ISR in hard-irq context, its bottom half later in a kthread */
static enum hrtimer_restart fire(struct hrtimer *t)
{
	unsigned long flags;
	bool more;

	nvidia_isr(GT_IRQ, NULL);
	atomic_inc(&bh_pending);
	schedule_delayed_work(&bh_work, usecs_to_jiffies(bh_delay_us));
	spin_lock_irqsave(&irq_lock, flags);
	more = --irqs_left > 0;
	spin_unlock_irqrestore(&irq_lock, flags);
	if (!more)
		return HRTIMER_NORESTART;
	hrtimer_forward_now(t, ms_to_ktime(20));
	return HRTIMER_RESTART;
}

static ssize_t irq_write(struct file *f, const char __user *ubuf, size_t count, loff_t *pos)
{
	char buf[32];
	int n;
	unsigned int us;

	if (count >= sizeof(buf) || copy_from_user(buf, ubuf, count))
		return -EINVAL;
	buf[count] = '\0';
	/* a bottom half (jiffies: 4 ms at HZ=250) before the next interrupt, 20 ms on */
	if (sscanf(buf, "%d %u", &n, &us) != 2 || n <= 0 || n > 1000 || us > 4000)
		return -EINVAL;
	hrtimer_cancel(&irq_timer);
	cancel_delayed_work_sync(&bh_work);
	atomic_set(&bh_pending, 0);
	irqs_left = n;
	bh_delay_us = us;
	pr_info("gt_nvidia: irqs n=%d bh_delay_us=%u\n", n, us);
	hrtimer_start(&irq_timer, ms_to_ktime(1), HRTIMER_MODE_REL_HARD);
	return count;
}

static ssize_t xid_write(struct file *f, const char __user *ubuf, size_t count, loff_t *pos)
{
	char buf[128], *msg = buf, *num;
	unsigned int code;

	if (count >= sizeof(buf) || copy_from_user(buf, ubuf, count))
		return -EINVAL;
	buf[count] = '\0';
	strreplace(buf, '\n', '\0');
	num = strsep(&msg, " ");
	if (!msg || kstrtouint(num, 10, &code))
		return -EINVAL;
	trace_nvidia_dev_xid(GT_NVIDIA_DEV, code, msg);
	pr_info("gt_nvidia: xid dev=%s code=%u msg=%s\n", GT_NVIDIA_DEV, code, msg);
	return count;
}

static const struct file_operations irq_fops = { .owner = THIS_MODULE, .write = irq_write };
static const struct file_operations xid_fops = { .owner = THIS_MODULE, .write = xid_write };
static const struct file_operations uvm_fops = { .owner = THIS_MODULE, .write = uvm_write };

static const struct file_operations nv_fops = {
	.owner = THIS_MODULE,
	.open = nvidia_open,
	.release = nvidia_close,
	.unlocked_ioctl = nvidia_unlocked_ioctl,
	.compat_ioctl = nvidia_unlocked_ioctl,
	.mmap = nvidia_mmap,
};

static struct miscdevice nv_dev = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "gt_nvidia",
	.fops = &nv_fops,
	.mode = 0666,
};

static int __init gt_nvidia_init(void)
{
	int ret;

#ifdef GT_HRTIMER_SETUP
	hrtimer_setup(&irq_timer, fire, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
#else
	hrtimer_init(&irq_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	irq_timer.function = fire;
#endif
	INIT_DELAYED_WORK(&bh_work, bottom_half);
	ret = misc_register(&nv_dev);
	if (ret)
		return ret;
	debug_dir = debugfs_create_dir("gt_nvidia", NULL);
	debugfs_create_file("irq", 0200, debug_dir, NULL, &irq_fops);
	debugfs_create_file("xid", 0200, debug_dir, NULL, &xid_fops);
	debugfs_create_file("uvm", 0200, debug_dir, NULL, &uvm_fops);
	return 0;
}

static void __exit gt_nvidia_exit(void)
{
	debugfs_remove_recursive(debug_dir);
	hrtimer_cancel(&irq_timer);
	cancel_delayed_work_sync(&bh_work);
	misc_deregister(&nv_dev);
}

module_init(gt_nvidia_init);
module_exit(gt_nvidia_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("gpu-trace lab: nvidia.ko's probed functions, ioctl numbering and Xid tracepoint");
