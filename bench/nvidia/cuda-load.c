// SPDX-License-Identifier: GPL-2.0
/*
 * cuda-load: a real GPU workload on NVIDIA's driver API with no toolkit: the
 * driver's own libcuda.so.1 opened with dlopen, a PTX kernel loaded with
 * cuModuleLoadData (the driver compiles it for the GPU at hand), then ROUNDS
 * rounds of LAUNCHES launches of it, each round synchronized, and the result
 * checked. What record --preset nvidia should then see: the process's ioctls
 * on /dev/nvidiactl and /dev/nvidia0 (RM allocs, controls), mmaps, interrupts
 * with their bottom halves, and UVM where managed memory faults.
 *
 *   cuda-load [ROUNDS [LAUNCHES [ELEMENTS]]]    defaults 20, 50, 1 << 24
 *
 * Prints one line per step; exits 0 when the GPU's sums are right, 1 when
 * they are not or a call fails (which one and its CUresult), 77 when there is
 * no libcuda.so.1 (no NVIDIA driver here).
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef int CUresult;
typedef int CUdevice;
typedef void *CUcontext;
typedef void *CUmodule;
typedef void *CUfunction;
typedef uint64_t CUdeviceptr;

/* y[i] = y[i] + a * x[i], one element per thread */
static const char ptx[] =
	".version 7.0\n"
	".target sm_50\n"
	".address_size 64\n"
	".visible .entry axpy(.param .u64 px, .param .u64 py, .param .f32 a, .param .u32 n)\n"
	"{\n"
	"	.reg .pred p;\n"
	"	.reg .b32 r<6>;\n"
	"	.reg .f32 f<4>;\n"
	"	.reg .b64 d<8>;\n"
	"	ld.param.u64 d1, [px];\n"
	"	ld.param.u64 d2, [py];\n"
	"	ld.param.f32 f1, [a];\n"
	"	ld.param.u32 r1, [n];\n"
	"	mov.u32 r2, %ctaid.x;\n"
	"	mov.u32 r3, %ntid.x;\n"
	"	mov.u32 r4, %tid.x;\n"
	"	mad.lo.s32 r5, r2, r3, r4;\n"
	"	setp.ge.u32 p, r5, r1;\n"
	"	@p bra done;\n"
	"	cvta.to.global.u64 d3, d1;\n"
	"	cvta.to.global.u64 d4, d2;\n"
	"	mul.wide.u32 d5, r5, 4;\n"
	"	add.s64 d6, d3, d5;\n"
	"	add.s64 d7, d4, d5;\n"
	"	ld.global.f32 f2, [d6];\n"
	"	ld.global.f32 f3, [d7];\n"
	"	fma.rn.f32 f3, f1, f2, f3;\n"
	"	st.global.f32 [d7], f3;\n"
	"done:\n"
	"	ret;\n"
	"}\n";

static struct {
	CUresult (*init)(unsigned int);
	CUresult (*device_get)(CUdevice *, int);
	CUresult (*ctx_create)(CUcontext *, unsigned int, CUdevice);
	CUresult (*ctx_destroy)(CUcontext);
	CUresult (*ctx_sync)(void);
	CUresult (*module_load_data)(CUmodule *, const void *);
	CUresult (*module_get_function)(CUfunction *, CUmodule, const char *);
	CUresult (*mem_alloc)(CUdeviceptr *, size_t);
	CUresult (*mem_free)(CUdeviceptr);
	CUresult (*htod)(CUdeviceptr, const void *, size_t);
	CUresult (*dtoh)(void *, CUdeviceptr, size_t);
	CUresult (*launch)(CUfunction, unsigned int, unsigned int, unsigned int, unsigned int,
			   unsigned int, unsigned int, unsigned int, void *, void **, void **);
} cu;

static void *sym(void *lib, const char *name)
{
	void *p = dlsym(lib, name);

	if (!p) {
		fprintf(stderr, "cuda-load: libcuda.so.1 has no %s\n", name);
		exit(1);
	}
	return p;
}

static void check(CUresult r, const char *what)
{
	if (r) {
		fprintf(stderr, "cuda-load: %s failed: CUresult %d\n", what, r);
		exit(1);
	}
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	unsigned int rounds = argc > 1 ? (unsigned int)atoi(argv[1]) : 20;
	unsigned int launches = argc > 2 ? (unsigned int)atoi(argv[2]) : 50;
	unsigned int n = argc > 3 ? (unsigned int)atoi(argv[3]) : 1u << 24;
	void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
	CUdeviceptr dx, dy;
	CUcontext ctx;
	CUmodule mod;
	CUfunction fn;
	CUdevice dev;
	float *x, *y, a = 0.5f;
	double t0;
	unsigned int i, r;
	void *args[4];

	if (!lib) {
		fprintf(stderr, "cuda-load: no libcuda.so.1 (%s): no NVIDIA driver here\n", dlerror());
		return 77;
	}
	if (!rounds || !launches || !n || n > (1u << 28)) {
		fprintf(stderr, "usage: cuda-load [ROUNDS [LAUNCHES [ELEMENTS <= 2^28]]]\n");
		return 2;
	}
	cu.init = sym(lib, "cuInit");
	cu.device_get = sym(lib, "cuDeviceGet");
	cu.ctx_create = sym(lib, "cuCtxCreate_v2");
	cu.ctx_destroy = sym(lib, "cuCtxDestroy_v2");
	cu.ctx_sync = sym(lib, "cuCtxSynchronize");
	cu.module_load_data = sym(lib, "cuModuleLoadData");
	cu.module_get_function = sym(lib, "cuModuleGetFunction");
	cu.mem_alloc = sym(lib, "cuMemAlloc_v2");
	cu.mem_free = sym(lib, "cuMemFree_v2");
	cu.htod = sym(lib, "cuMemcpyHtoD_v2");
	cu.dtoh = sym(lib, "cuMemcpyDtoH_v2");
	cu.launch = sym(lib, "cuLaunchKernel");

	check(cu.init(0), "cuInit");
	check(cu.device_get(&dev, 0), "cuDeviceGet");
	check(cu.ctx_create(&ctx, 0, dev), "cuCtxCreate");
	check(cu.module_load_data(&mod, ptx), "cuModuleLoadData (the PTX)");
	check(cu.module_get_function(&fn, mod, "axpy"), "cuModuleGetFunction");
	x = malloc(sizeof(*x) * n);
	y = malloc(sizeof(*y) * n);
	if (!x || !y)
		return 1;
	for (i = 0; i < n; i++) {
		x[i] = 1.0f;
		y[i] = 0.0f;
	}
	check(cu.mem_alloc(&dx, sizeof(*x) * n), "cuMemAlloc x");
	check(cu.mem_alloc(&dy, sizeof(*y) * n), "cuMemAlloc y");
	check(cu.htod(dx, x, sizeof(*x) * n), "cuMemcpyHtoD x");
	check(cu.htod(dy, y, sizeof(*y) * n), "cuMemcpyHtoD y");
	args[0] = &dx;
	args[1] = &dy;
	args[2] = &a;
	args[3] = &n;
	printf("cuda-load: %u rounds of %u launches over %u floats\n", rounds, launches, n);
	fflush(stdout);
	for (r = 0; r < rounds; r++) {
		t0 = now();
		for (i = 0; i < launches; i++)
			check(cu.launch(fn, (n + 255) / 256, 1, 1, 256, 1, 1, 0, NULL, args, NULL),
			      "cuLaunchKernel");
		check(cu.ctx_sync(), "cuCtxSynchronize");
		printf("round %u: %u launches in %.3f ms\n", r, launches, (now() - t0) * 1e3);
		fflush(stdout);
	}
	check(cu.dtoh(y, dy, sizeof(*y) * n), "cuMemcpyDtoH y");
	for (i = 0; i < n; i++)
		if (y[i] != 0.5f * (float)rounds * (float)launches) {
			fprintf(stderr, "cuda-load: y[%u] = %g, want %g\n", i, (double)y[i],
				0.5 * rounds * launches);
			return 1;
		}
	check(cu.mem_free(dx), "cuMemFree x");
	check(cu.mem_free(dy), "cuMemFree y");
	check(cu.ctx_destroy(ctx), "cuCtxDestroy");
	printf("cuda-load: the sums are right\n");
	return 0;
}
