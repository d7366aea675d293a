# gpu-trace: record and decode Linux GPU driver events
VERSION    := 0.1.0
PREFIX     ?= /usr/local
DESTDIR    ?=
BINDIR     := $(PREFIX)/bin
MANDIR     := $(PREFIX)/share/man/man1
COMPLETIONDIR := $(PREFIX)/share/bash-completion/completions
# the flight recorder's service (off until enabled) and its settings, kept when present
UNITDIR    ?= $(PREFIX)/lib/systemd/system
DEFAULTDIR ?= /etc/default

CC         ?= cc
PKGS       := libtracefs libtraceevent libtracecmd libzstd
# Read when a recipe first needs them, not while make parses: `make deps all`
# on a fresh machine installs pkg-config and the -dev packages first. Each is
# asked once and kept (a plain = would run pkg-config for every object).
PKG_CFLAGS = $(eval PKG_CFLAGS := $$(shell pkg-config --cflags $(PKGS) 2>/dev/null))$(PKG_CFLAGS)
PKG_LIBS   = $(eval PKG_LIBS := $$(shell pkg-config --libs $(PKGS) 2>/dev/null))$(PKG_LIBS)
WARN       := -Wall -Wextra -Werror
CFLAGS     ?= -O2 -g
# -MMD -MP: each object's header dependencies, generated as it compiles
ALL_CFLAGS  = -std=gnu11 -D_GNU_SOURCE $(WARN) $(CFLAGS) $(PKG_CFLAGS) -DGT_VERSION='"$(VERSION)"' -Ilib -Ibuild/gen -MMD -MP
LDLIBS      = $(PKG_LIBS) -lpthread -lm
SAN        := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined

# lib/ in layers, one folder each (README's Layout; make check-layers holds the rules)
LIB_SRCS   := $(sort $(wildcard lib/*/*.c))
# what the libtraceevent plugins share with gpu-trace (built position-independent):
# the decoders and what they stand on, by folder
PLUGIN_LIB := $(sort $(wildcard lib/decode/*.c lib/util/*.c))
PLUGINS    := $(patsubst plugins/%.c,build/plugins/%.so,$(sort $(wildcard plugins/plugin_*.c)))
FIXTURE_SRCS := $(sort $(wildcard tests/fixture/*.c))
CMD_SRCS   := $(sort $(wildcard cmd/*.c))
UNIT_SRCS  := $(sort $(wildcard tests/unit/*.c tests/unit/*/*.c))
TEP_PLUGIN_DIR ?= $(shell pkg-config --variable=libdir libtraceevent 2>/dev/null)/traceevent/plugins

# Debian 12 packages (make deps, as root): what building, installing and
# running gpu-trace need (make deps all/demo/install), and with check, fuzz or
# bench among the goals also what the tests need (qemu for the kernel lab,
# debootstrap for the fresh-install stage, Chromium, KernelShark, Xvfb, Node
# for Perfetto's trace processor ...).
# clang and libclang-rt-14-dev only for make fuzz
DEB_DEPS   := build-essential pkg-config libtracefs-dev libtraceevent-dev libtracecmd-dev libzstd-dev \
	      libtraceevent1-plugin trace-cmd
DEB_TEST_DEPS := libcunit1-dev python3 procps util-linux bc time \
	      qemu-system-x86 busybox-static debootstrap cpio xz-utils zstd kmod \
	      kernelshark xvfb xauth x11-utils tmux less protobuf-compiler chromium shellcheck strace \
	      nodejs systemd-container slurmctld slurmd slurm-client munge libslurm-dev
ifneq ($(filter check check-% fuzz bench,$(MAKECMDGOALS)),)
DEB_DEPS   += $(DEB_TEST_DEPS)
endif

obj = $(patsubst %.c,build/$(1)/%.o,$(2))

.PHONY: all deps check check-layers check-unit check-integration check-fresh check-service check-slurm check-vm install uninstall clean demo bench fuzz fuzz-leaks

# srun --gpu-trace (contrib/slurm): built where libslurm-dev's spank.h is, looked for
# when the recipe runs (make deps all installs it in the same invocation)
SPANK      := build/gpu_trace_spank.so
SPANKDIR   ?= $(PREFIX)/lib/gpu-trace

all: gpu-trace $(PLUGINS) $(SPANK)

build/gpu_trace_spank.so: contrib/slurm/gpu-trace-spank.c
	@mkdir -p build
	@if [ -f /usr/include/slurm/spank.h ]; then \
		echo "$(CC) ... -o $@ $<"; \
		$(CC) -std=gnu11 -D_GNU_SOURCE $(WARN) $(CFLAGS) -fPIC -shared \
			-DGPU_TRACE_BIN='"$(BINDIR)/gpu-trace"' -o $@ $<; \
	else \
		echo "no /usr/include/slurm/spank.h: srun --gpu-trace not built (apt-get install libslurm-dev)"; \
	fi

build/pic/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -fPIC -c -o $@ $<

build/plugins/%.so: build/pic/plugins/%.o $(call obj,pic,$(PLUGIN_LIB))
	@mkdir -p $(dir $@)
	$(CC) -shared -o $@ $^

build/normal/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

# The HTML report's page, as a C string the binary carries (no file to install)
build/gen/report-page.h: lib/output/report-page.html
	@mkdir -p $(dir $@)
	sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' $< > $@
$(call obj,normal,lib/output/report-html.c) $(call obj,asan,lib/output/report-html.c): build/gen/report-page.h

build/asan/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(SAN) -O1 -c -o $@ $<

gpu-trace: $(call obj,normal,$(LIB_SRCS) $(CMD_SRCS))
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS)

build/asan/gpu-trace: $(call obj,asan,$(LIB_SRCS) $(CMD_SRCS))
	$(CC) $(ALL_CFLAGS) $(SAN) -o $@ $^ $(LDLIBS)

build/normal/unit-tests: $(call obj,normal,$(LIB_SRCS) $(UNIT_SRCS) $(FIXTURE_SRCS))
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS) -lcunit

build/asan/unit-tests: $(call obj,asan,$(LIB_SRCS) $(UNIT_SRCS) $(FIXTURE_SRCS))
	$(CC) $(ALL_CFLAGS) $(SAN) -o $@ $^ $(LDLIBS) -lcunit

build/dat-inspect: tests/tools/dat-inspect.c
	@mkdir -p build
	$(CC) $(ALL_CFLAGS) -o $@ $< $(LDLIBS)

build/make-fixture: tests/tools/make-fixture.c $(call obj,normal,$(FIXTURE_SRCS) $(LIB_SRCS))
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS)

build/live-read: tests/tools/live-read.c $(call obj,normal,$(LIB_SRCS))
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS) -lpthread

build/visit-records: bench/visit-records.c $(call obj,normal,$(LIB_SRCS))
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS)

build/storm: bench/storm.c
	@mkdir -p build
	$(CC) -O2 -Wall -Wextra -Werror -o $@ $<

# `make deps all` (or check, demo, install) in one invocation: whatever else
# is asked for waits for the packages, even under -j
ifneq ($(filter deps,$(MAKECMDGOALS)),)
$(filter-out deps,$(MAKECMDGOALS)): | deps
endif

deps:
	apt-get update
	DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $(DEB_DEPS)

# Unit tests (plain and ASan+UBSan), then the integration suite driving the
# real binary (plain and ASan+UBSan) on this machine's tracefs.
TEST_BINS := gpu-trace $(PLUGINS) build/asan/gpu-trace build/normal/unit-tests build/asan/unit-tests build/dat-inspect build/make-fixture build/storm build/visit-records build/live-read \
	build/normal/replay-records build/asan/replay-records build/normal/replay-text build/asan/replay-text \
	build/normal/replay-formats build/asan/replay-formats build/normal/replay-output build/asan/replay-output $(SPANK)

check: $(TEST_BINS)
	tests/run-all.sh

check-unit: build/normal/unit-tests build/asan/unit-tests
	tests/run-all.sh unit

# lib/'s layers include one way only (tests/check-layers.sh); part of make check
check-layers: gpu-trace
	tests/run-all.sh layers

check-integration: $(TEST_BINS)
	tests/run-all.sh integration

# A bare Debian 12 (debootstrap, cached) runs the README's first command,
# make install and the installed tools on a fixture; part of `make check`.
check-fresh: build/make-fixture
	tests/run-all.sh fresh

# srun --gpu-trace on a real Slurm: munged, slurmctld and two slurmd on this machine
# (tests/slurm/run.sh); part of `make check`.
check-slurm: gpu-trace $(PLUGINS) $(SPANK)
	tests/run-all.sh slurm

# The flight recorder's systemd unit under a real systemd: a debootstrapped Debian 12
# with systemd (cached) booted by systemd-nspawn; part of `make check`.
check-service: gpu-trace $(PLUGINS)
	tests/run-all.sh service

# The kernel lab (tests/vm/README.md): Debian 6.1, 6.12 and 7.3 under qemu,
# a mock GPU scheduler driver, gpu-trace recording inside, reports compared
# with the module's ground truth.  Part of `make check`; VM_KERNELS picks kernels.
check-vm: gpu-trace $(PLUGINS)
	tests/run-all.sh vm

# The main job on a default workload: every GPU event system this kernel has
# (the all-gpu preset) plus scheduler events, so a machine without a GPU shows
# something too; then the stock trace-cmd reads the file. Then fixture traces
# of real kernel layouts: job statistics, and a recorded workload's jobs
# waiting behind another process's on one ring.
demo: gpu-trace $(PLUGINS) build/make-fixture
	./gpu-trace record --preset all-gpu -e sched:sched_switch -e sched:sched_process_exec \
		-o demo.dat --force -- sh -c 'for i in 1 2 3; do ls / > /dev/null; done; sleep 0.2'
	./gpu-trace report demo.dat || [ $$? = 2 ]
	trace-cmd report -i demo.dat | head -8
	build/make-fixture tests/fixtures/formats two-rings demo-fixture.dat
	./gpu-trace report demo-fixture.dat
	TRACEEVENT_PLUGIN_DIR=build/plugins trace-cmd report -i demo-fixture.dat | head -8
	build/make-fixture tests/fixtures/formats competing demo-competing.dat
	./gpu-trace report --rings demo-competing.dat

bench: gpu-trace build/storm build/make-fixture build/visit-records
	bench/event-storm.sh
	bench/report.sh

# Coverage-guided fuzzing (needs clang and libclang-rt-14-dev), see FUZZING.md:
# fuzz-report feeds whole .dat files (seeds: the fixture scenarios) through
# report's path; fuzz-records feeds synthetic records of the real formats
# straight into the decoders, the timeline, the KFD tracker and the pid tree;
# fuzz-output runs report and compare themselves, every format and section.
# Crashes land in tests/fuzz/crashers, which the tests replay. FUZZ_SECONDS
# bounds each target's run.
FUZZ_SECONDS ?= 120
FUZZ_CFLAGS = -std=gnu11 -D_GNU_SOURCE -g -O1 -fsanitize=fuzzer,address,undefined \
	-fno-sanitize-recover=undefined $(PKG_CFLAGS) -DGT_VERSION='"$(VERSION)"' -Ilib -Ibuild/gen
# No allocation is masked in the records and text targets (a malloc limit
# catches what input makes us allocate). fuzz-report alone keeps
# allocator_may_return_null: libtracecmd's open, which report runs in a probe
# child first, allocates what a damaged file claims, and the fuzzer's
# allocation hooks live on in that child.
FUZZ_ENV = LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0 \
	ASAN_OPTIONS=fast_unwind_on_malloc=0:malloc_context_size=30
FUZZ_REPORT_ENV = $(FUZZ_ENV):allocator_may_return_null=1
# The whole-file targets (report, output) run 15-20 times faster without
# leak checking, whose suppressions need full stack unwinding on every
# malloc: they fuzz so, then fuzz-leaks replays everything they kept
# through the sanitized replay binaries with leak checking on.
FUZZ_FAST_ENV = ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1:quarantine_size_mb=64
# Every target runs under a memory cap: the records, text and formats
# targets a malloc limit; report and output a malloc limit of 512 MB, an RSS
# limit of 1 GB (what a file makes report hold: a kilobyte file once took
# 1.3 to 3.2 GB) and, in the harnesses, 1 GB for any child (the probe of
# libtracecmd's open; tests/fuzz/memory-cap.h).

build/fuzz/fuzz-%: tests/fuzz/fuzz-%.c $(LIB_SRCS) $(wildcard lib/*/*.h) build/gen/report-page.h
	@mkdir -p build/fuzz
	clang $(FUZZ_CFLAGS) -o $@ $< $(LIB_SRCS) $(LDLIBS)

# fuzz-report's custom mutator damages zstd v7 pages before compressing them
build/fuzz/fuzz-report: tests/fuzz/fuzz-report.c tests/fuzz/zstd-mutator.c $(LIB_SRCS) $(wildcard lib/*/*.h) \
		build/gen/report-page.h
	@mkdir -p build/fuzz
	clang $(FUZZ_CFLAGS) -o $@ $< tests/fuzz/zstd-mutator.c $(LIB_SRCS) $(LDLIBS)

# the output stage: report and compare themselves, cmd/ linked but for main
CMD_LIB_SRCS := $(filter-out cmd/main.c,$(CMD_SRCS))
build/fuzz/fuzz-output: tests/fuzz/fuzz-output.c $(LIB_SRCS) $(CMD_LIB_SRCS) $(wildcard lib/*/*.h cmd/*.h) \
		build/gen/report-page.h
	@mkdir -p build/fuzz
	clang $(FUZZ_CFLAGS) -o $@ $< $(LIB_SRCS) $(CMD_LIB_SRCS) $(LDLIBS)

build/normal/replay-output: $(call obj,normal,tests/fuzz/replay.c tests/fuzz/fuzz-output.c $(LIB_SRCS) $(CMD_LIB_SRCS))
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS)

build/asan/replay-output: $(call obj,asan,tests/fuzz/replay.c tests/fuzz/fuzz-output.c $(LIB_SRCS) $(CMD_LIB_SRCS))
	$(CC) $(ALL_CFLAGS) $(SAN) -o $@ $^ $(LDLIBS)

# the records target's kept inputs, replayed by make check without libFuzzer
build/normal/replay-records: $(call obj,normal,tests/fuzz/replay.c tests/fuzz/fuzz-records.c $(LIB_SRCS))
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS)

build/asan/replay-records: $(call obj,asan,tests/fuzz/replay.c tests/fuzz/fuzz-records.c $(LIB_SRCS))
	$(CC) $(ALL_CFLAGS) $(SAN) -o $@ $^ $(LDLIBS)

# the text and formats targets' kept inputs, likewise
build/normal/replay-%: $(call obj,normal,tests/fuzz/replay.c $(LIB_SRCS)) build/normal/tests/fuzz/fuzz-%.o
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS)

build/asan/replay-%: $(call obj,asan,tests/fuzz/replay.c $(LIB_SRCS)) build/asan/tests/fuzz/fuzz-%.o
	$(CC) $(ALL_CFLAGS) $(SAN) -o $@ $^ $(LDLIBS)

fuzz: build/fuzz/fuzz-report build/fuzz/fuzz-records build/fuzz/fuzz-text build/fuzz/fuzz-formats \
		build/fuzz/fuzz-output build/make-fixture
	@mkdir -p build/fuzz/corpus build/fuzz/corpus-records build/fuzz/corpus-text \
		build/fuzz/corpus-formats build/fuzz/corpus-output tests/fuzz/crashers tests/fuzz/crashers-records \
		tests/fuzz/crashers-text tests/fuzz/crashers-formats tests/fuzz/crashers-output
	for s in $$(build/make-fixture tests/fixtures/formats list | cut -d' ' -f1); do \
		build/make-fixture tests/fixtures/formats $$s build/fuzz/corpus/$$s.dat; done
	# zstd v7 seeds too (lib/dat/dat-stream.c), when trace-cmd can convert; an
	# uncompressed v7 one, and one whose options section is compressed
	# (bench-1500: several chunks a CPU, for the chunks decompressed ahead)
	build/make-fixture tests/fixtures/formats bench:1500 build/fuzz/corpus/bench-1500.dat
	for s in lost-window competing virtio deps cpu-skew bench-1500; do \
		trace-cmd convert -i build/fuzz/corpus/$$s.dat -o build/fuzz/corpus/$$s-v7.dat \
			--file-version 7 --compression zstd > /dev/null 2>&1 || true; done
	trace-cmd convert -i build/fuzz/corpus/two-rings.dat -o build/fuzz/corpus/two-rings-v7none.dat \
		--file-version 7 --compression none > /dev/null 2>&1 || true
	cp build/fuzz/corpus/deps-v7.dat build/fuzz/corpus/deps-v7-zopts.dat 2> /dev/null && \
		python3 tests/tools/compress-options.py build/fuzz/corpus/deps-v7-zopts.dat > /dev/null || true
	$(FUZZ_FAST_ENV) build/fuzz/fuzz-report -detect_leaks=0 -max_total_time=$(FUZZ_SECONDS) -max_len=65536 \
		-timeout=10 -rss_limit_mb=1024 -malloc_limit_mb=512 -artifact_prefix=tests/fuzz/crashers/ \
		build/fuzz/corpus
	$(FUZZ_ENV) build/fuzz/fuzz-records -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -timeout=10 \
		-rss_limit_mb=2048 -malloc_limit_mb=512 -artifact_prefix=tests/fuzz/crashers-records/ \
		build/fuzz/corpus-records tests/fuzz/records-seeds
	$(FUZZ_ENV) build/fuzz/fuzz-text -max_total_time=$(FUZZ_SECONDS) -max_len=65536 -timeout=10 \
		-rss_limit_mb=1024 -malloc_limit_mb=512 -artifact_prefix=tests/fuzz/crashers-text/ \
		build/fuzz/corpus-text tests/fuzz/text-seeds
	$(FUZZ_ENV) build/fuzz/fuzz-formats -max_total_time=$(FUZZ_SECONDS) -max_len=16384 -timeout=10 \
		-rss_limit_mb=1024 -malloc_limit_mb=512 -artifact_prefix=tests/fuzz/crashers-formats/ \
		build/fuzz/corpus-formats tests/fuzz/formats-seeds
	python3 tests/tools/output-seeds.py build/make-fixture tests/fixtures/formats build/fuzz/output-seeds
	$(FUZZ_FAST_ENV) build/fuzz/fuzz-output -detect_leaks=0 -max_total_time=$(FUZZ_SECONDS) -max_len=131072 \
		-timeout=10 -rss_limit_mb=1024 -malloc_limit_mb=512 -artifact_prefix=tests/fuzz/crashers-output/ \
		build/fuzz/corpus-output build/fuzz/output-seeds
	$(MAKE) fuzz-leaks

# what the whole-file targets kept, replayed with leak checking on
fuzz-leaks: build/asan/replay-report build/asan/replay-output
	$(FUZZ_REPORT_ENV) build/asan/replay-report build/fuzz/corpus/* tests/fuzz/crashers/*
	$(FUZZ_REPORT_ENV) build/asan/replay-output build/fuzz/corpus-output/* tests/fuzz/crashers-output/*

install: gpu-trace $(PLUGINS) $(SPANK)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR) $(DESTDIR)$(TEP_PLUGIN_DIR) $(DESTDIR)$(COMPLETIONDIR)
	install -m 0755 gpu-trace $(DESTDIR)$(BINDIR)/gpu-trace
	install -m 0755 scripts/gpu-trace-experiment scripts/gpu-trace-gemm $(DESTDIR)$(BINDIR)/
	install -m 0644 completion/gpu-trace.bash $(DESTDIR)$(COMPLETIONDIR)/gpu-trace
	install -m 0644 man/*.1 $(DESTDIR)$(MANDIR)/
	install -m 0644 $(PLUGINS) $(DESTDIR)$(TEP_PLUGIN_DIR)/
	install -d $(DESTDIR)$(UNITDIR) $(DESTDIR)$(DEFAULTDIR)
	sed 's|@BINDIR@|$(BINDIR)|g' contrib/systemd/gpu-trace-flight.service.in > $(DESTDIR)$(UNITDIR)/gpu-trace-flight.service
	chmod 0644 $(DESTDIR)$(UNITDIR)/gpu-trace-flight.service
	[ -e $(DESTDIR)$(DEFAULTDIR)/gpu-trace-flight ] || \
		install -m 0644 contrib/systemd/gpu-trace-flight.default $(DESTDIR)$(DEFAULTDIR)/gpu-trace-flight
	[ ! -f $(SPANK) ] || { install -d $(DESTDIR)$(SPANKDIR) && install -m 0644 $(SPANK) $(DESTDIR)$(SPANKDIR)/; }

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/gpu-trace $(DESTDIR)$(BINDIR)/gpu-trace-experiment \
		$(DESTDIR)$(BINDIR)/gpu-trace-gemm $(DESTDIR)$(COMPLETIONDIR)/gpu-trace $(patsubst man/%,$(DESTDIR)$(MANDIR)/%,$(wildcard man/*.1)) \
		$(patsubst build/plugins/%,$(DESTDIR)$(TEP_PLUGIN_DIR)/%,$(PLUGINS)) \
		$(DESTDIR)$(UNITDIR)/gpu-trace-flight.service $(DESTDIR)$(SPANKDIR)/gpu_trace_spank.so

clean:
	rm -rf build gpu-trace demo.dat demo-fixture.dat demo-competing.dat

-include $(shell find build -name '*.d' 2>/dev/null)
