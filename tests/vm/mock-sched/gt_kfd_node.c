// SPDX-License-Identifier: GPL-2.0
/*
 * gt_kfd_node: lets a process open /dev/kfd on a kernel whose amdkfd
 * refuses processes while it has no GPU node (kfd_create_process() checks
 * kfd_gpu_node_num() from 6.17 on; 6.1 does not), so the lab's kfd-probe
 * can make its queue ioctls there too.  A return probe on
 * kfd_gpu_node_num answers 1 instead of 0; nothing else changes: every
 * ioctl naming a gpu_id still finds no such GPU and says so.
 */
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/ptrace.h>

static int one_node(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	if (!regs_return_value(regs))
		regs_set_return_value(regs, 1);
	return 0;
}

static struct kretprobe node_num = {
	.kp.symbol_name = "kfd_gpu_node_num",
	.handler = one_node,
	.maxactive = 8,
};

static int __init gt_kfd_node_init(void)
{
	return register_kretprobe(&node_num);
}

static void __exit gt_kfd_node_exit(void)
{
	unregister_kretprobe(&node_num);
}

module_init(gt_kfd_node_init);
module_exit(gt_kfd_node_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("gpu-trace lab: kfd_gpu_node_num() answers 1 without a GPU");
