# gpu-trace report --format html on every fixture scenario, opened in headless
# Chromium as a person would (file:// URL, network off): every ring and job of
# the JSON report drawn, no console error, a hover over a known job shows its
# stages; screenshots kept in build/test-artifacts/. Needs no root.
# shellcheck shell=bash
# NO_ROOT

HTML_CHECK=$ROOT_DIR/tests/html/check-page.py
ARTIFACTS=$ROOT_DIR/build/test-artifacts

need_chromium() {
	command -v chromium > /dev/null && return 0
	WHY="chromium is not installed (sudo make deps installs it)"
	return 77
}

# html_check DAT NAME [--hover]
html_check() {
	"$GT" report --format html -o "$WORK/$2.html" "$1" 2> "$WORK/$2.err" ||
		{ WHY="$2: report --format html failed: $(cat "$WORK/$2.err")"; return 1; }
	"$GT" report --jobs --format json "$1" > "$WORK/$2.json" 2> /dev/null
	mkdir -p "$ARTIFACTS"
	python3 "$HTML_CHECK" "$WORK/$2.html" "$WORK/$2.json" "$ARTIFACTS/$2.png" "${@:3}" \
		> "$WORK/$2.check" 2>&1 || { WHY="$2: $(head -3 "$WORK/$2.check" | tr '\n' ' ')"; return 1; }
}

test_html_every_fixture() {
	local s
	need_chromium || return
	for s in $("$ROOT_DIR/build/make-fixture" "$ROOT_DIR/tests/fixtures/formats" list | awk '{ print $1 }'); do
		"$ROOT_DIR/build/make-fixture" "$ROOT_DIR/tests/fixtures/formats" "$s" "$WORK/h-$s.dat" ||
			{ WHY="make-fixture $s failed"; return 1; }
		case $s in
		kfd-*) html_check "$WORK/h-$s.dat" "html-$s" || return 1 ;;
		# xe's timeouts alone (6.12's scheduler events are not in it): the hangs table
		xe-hang-6.12) html_check "$WORK/h-$s.dat" "html-$s" --text "gt-hangs:GuC queue 5" \
			--text "gt-hangs:llama 4242" || return 1 ;;
		# display timing has no jobs: its table, as the text report says it
		vblank) html_check "$WORK/h-$s.dat" "html-$s" --text "gt-vblank:60.00" --text "gt-vblank:144.01" \
			--text "gt-vblank:2 in 1 gap" --text "gt-vblank:1 (2)" --text "gt-vblank:26.000" || return 1 ;;
		# page flips paired with their asks: one presented 2 vblanks late
		page-flips) html_check "$WORK/h-$s.dat" "html-$s" --text "gt-vblank:1 (2)" \
			--text "gt-vblank:16416.000" || return 1 ;;
		# the flood of asks: the one flip it paired, 29 vblanks late
		page-flips-flood) html_check "$WORK/h-$s.dat" "html-$s" --text "gt-vblank:1 (29)" || return 1 ;;
		# two devices' CRTC 0: a row per count
		vblank-two-displays) html_check "$WORK/h-$s.dat" "html-$s" --text "gt-vblank:0 (count 2: another device's)" \
			--text "gt-vblank:75.00" --text "gt-vblank:0 (count 3: another device's)" || return 1 ;;
		# the CPU side's tables, as the text report splits the ioctls and names the wait
		# and the job's ioctl in its process's row: the JSON's numbers, the split on hover
		cpu-side) html_check "$WORK/h-$s.dat" "html-$s" --hover --text "gt-cpu:AMDGPU_CS" --ioctls 1 \
			--tip "proc:llama 5000:1000040000:AMDGPU_CS  thread 5000" \
			--tip "proc:llama 5000:1000040000:runnable   30.000 us 42.9% (waiting for a CPU)" \
			--tip "proc:llama 5000:1000040000:interrupts 5.000 us 7.1%" \
			--text "gt-cpu:rival 6000 18.8%" --text "gt-cpu:AMDKFD_IOC_CREATE_QUEUE" \
			--text "gt-cpu-waits:100:1 (gfx_0.0.0)" --text "gt-cpu-waits:70.000" \
			--text "gt-cpu-waits:mixed: 42.1% of 337.000 us waiting on the GPU" || return 1 ;;
		# an ioctl still inside at the file's end: how long, in its own column
		cpu-side-unended) html_check "$WORK/h-$s.dat" "html-$s" --text "gt-cpu:DRM_IOCTL_SYNCOBJ_WAIT" \
			--text "gt-cpu:160.000" --text "gt-cpu:80.000" || return 1 ;;
		# virtio-gpu's command queued in its RESOURCE_CREATE: the ioctl in drm-probe's row
		cpu-side-virtio) html_check "$WORK/h-$s.dat" "html-$s" --hover --ioctls 1 \
			--tip "proc:drm-probe 600:1000015000:VIRTGPU_RESOURCE_CREATE  thread 600" || return 1 ;;
		# xe's queues put back on their GT and engine, as the text report lists them
		xe-engines) html_check "$WORK/h-$s.dat" "html-$s" --hover --text "gt-xe:vcs" \
			--text "gt-xe:240.000" --text "gt-xe:ccs" || return 1 ;;
		# Debian's i915: jobs without a run, nothing on the hardware to hover over
		i915-6.1) html_check "$WORK/h-$s.dat" "html-$s" --text "gt-i915:none (no in/out events)" \
			--text "gt-i915:127.000" || return 1 ;;
		i915*) html_check "$WORK/h-$s.dat" "html-$s" --hover --text "gt-i915:rcs0" || return 1 ;;
		# no jobs to hover over: the user-queue table instead
		userq) html_check "$WORK/h-$s.dat" "html-$s" --text "gt-userq:llama 4242" \
			--text "gt-userq:preempted 0.300, hung 0.500" --text "gt-userq:800.000" --text "gt-userq:0x10" || return 1 ;;
		# the owner-switch table and each ring's line, as the text report says them
		isolation) html_check "$WORK/h-$s.dat" "html-$s" --hover --text "gt-switches:301:1 on comp_1.0.0" \
			--text "gt-switches:rival 6000" \
			--text "gt-behind:$("$GT" report "$WORK/h-$s.dat" | sed -n 's/^  \(owner switches .*3 times\)$/\1/p')" || return 1 ;;
		hang) html_check "$WORK/h-$s.dat" "html-$s" --hover --text "gt-hangs:100:1 llama 4242 on the hardware 10000.000 us" \
			--text "gt-hangs:succeeded after 275.000 us" --text "gt-behind:timed out 1 time" || return 1 ;;
		memory) html_check "$WORK/h-$s.dat" "html-$s" --hover --text "gt-moves:68.0" \
			--text "gt-behind:buffers moved while the workload's 1 job waited (queue->run, 0.392 ms in all): 112.0 MiB" \
			--text "gt-behind:page tables updated while the workload's 1 job waited (queue->run, 0.392 ms in all): 3.0 MiB of GPU address space" \
			--text "gt-vm:llama 5000" --text "gt-vm:64.0 KiB" --text "gt-vm-rings:comp_1.0.0" || return 1 ;;
		dma-buf) html_check "$WORK/h-$s.dat" "html-$s" --hover --text "gt-dmabuf:rival 6000" \
			--text "gt-dmabuf:0000:c3:00.0" --text "gt-dmabuf:system" || return 1 ;;
		fdinfo) html_check "$WORK/h-$s.dat" "html-$s" --hover --text "gt-clients:llama 5000" --text "gt-clients:5.100" --text "gt-clients:0.800" || return 1 ;;
		# NVIDIA's driver has no jobs: its tables, as the text report says them
		# past the rows the report keeps: counted, as the text report says
		nvidia-many-lines) html_check "$WORK/h-$s.dat" "html-$s" --text "gt-nv-irqs:(6 more ISRs on lines past 64)" \
			--text "gt-nv-uvm:(4 more passes of fault buffers past 16)" || return 1 ;;
		nvidia*) html_check "$WORK/h-$s.dat" "html-$s" --text "gt-nv-ioctls:RM_CONTROL 0x20800102" \
			--text "gt-nv-ioctls:2100.000 / 9000.000 / 9000.000" --text "gt-nv-slow:RM_CONTROL 0x20801801" \
			--text "gt-nv-procs:python3 5000" --text "gt-nv-irqs:500.000 / 600.000 / 600.000" \
			--text "gt-nv-uvm:non-replayable" --text "gt-nv-xids:GPU has fallen off the bus." || return 1 ;;
		*) html_check "$WORK/h-$s.dat" "html-$s" --hover || return 1 ;;
		esac
	done
	expect "competing: not 7 jobs drawn" grep -q '1 rings, 7 jobs, mode jobs' "$WORK/html-competing.check" || return 1
	# the page says what the text report says of whose jobs the workload waited behind
	local line
	line=$("$GT" report "$WORK/h-competing.dat" | sed -n 's/^  \(workload: .*\)$/\1/p')
	expect "the text report has no workload line for competing" [ -n "$line" ] || return 1
	python3 "$HTML_CHECK" "$WORK/html-competing.html" "$WORK/html-competing.json" "$ARTIFACTS/html-behind.png" \
		--text "gt-behind:$line" > "$WORK/html-behind.check" 2>&1
	expect "the page's rings lack the text report's line '$line': $(head -2 "$WORK/html-behind.check")" \
		grep -q '^ok:' "$WORK/html-behind.check" || return 1
	expect "no screenshot" [ -s "$ARTIFACTS/html-competing.png" ]
}

# More jobs than the page draws one by one: the density view, exact counts on
# hover, jobs again when zoomed in.
test_html_density_view() {
	need_chromium || return
	"$ROOT_DIR/build/make-fixture" "$ROOT_DIR/tests/fixtures/formats" bench:120000 "$WORK/h-big.dat" > /dev/null ||
		{ WHY="make-fixture failed"; return 1; }
	html_check "$WORK/h-big.dat" html-density --hover || return 1
	expect "120000 jobs not in density mode" grep -q '120000 jobs, mode density' "$WORK/html-density.check"
}

test_html_names_cannot_break_the_page() {
	local f=$WORK/h-esc.dat
	"$ROOT_DIR/build/make-fixture" "$ROOT_DIR/tests/fixtures/formats" two-rings "$f" ||
		{ WHY="make-fixture failed"; return 1; }
	# a file name with markup: it goes into the page's JSON ('/' cannot be in a
	# name, so no "</script>", but "<script" and "<!--" change how a script block parses)
	local name="$WORK/x<script><!--.dat"
	cp "$f" "$name"
	"$GT" report --format html -o "$WORK/esc.html" "$name" || { WHY="report failed"; return 1; }
	# the page's own: its comment, its script, the file's jobs, their keys, their ioctls and its JSON
	expect "the file name's markup reached the page raw" \
		[ "$(grep -o '<script\|<!--' "$WORK/esc.html" | grep -c '')" = 6 ] || return 1
	need_chromium || return
	"$GT" report --jobs --format json "$name" > "$WORK/esc.json"
	python3 "$HTML_CHECK" "$WORK/esc.html" "$WORK/esc.json" "$WORK/esc.png" > "$WORK/esc.check" 2>&1 ||
		{ WHY="$(head -2 "$WORK/esc.check")"; return 1; }
}

# A damaged copy (a page of zeros amid CPU 1's data): the page says events
# were lost, in one window ("1 windows" before), as report's LOST line does
test_html_zeroed_page() {
	need_chromium || return
	zeroed_kfd_snapshot "$WORK/hz-zeroed.dat" || return
	html_check "$WORK/hz-zeroed.dat" html-zeroed --text 'gt-meta:, events lost in 1 window$'
}

test_html_errors() {
	local f=$WORK/h-err.dat
	"$ROOT_DIR/build/make-fixture" "$ROOT_DIR/tests/fixtures/formats" two-rings "$f" ||
		{ WHY="make-fixture failed"; return 1; }
	"$GT" report --format html --queues -o "$WORK/e.html" "$f" 2> "$WORK/h-e1"
	expect "--queues with html accepted" [ $? != 0 ] || return 1
	expect "not one line" [ "$(grep -c '' "$WORK/h-e1")" = 1 ] || return 1
	# a page is no text for a terminal; written, it says where and what
	if command -v script > /dev/null; then
		script -qec "$GT report --format html $f" /dev/null > "$WORK/h-e2" 2>&1
		expect "a page written to a terminal: $(head -c 200 "$WORK/h-e2")" \
			grep -q 'give -o FILE.html' "$WORK/h-e2" || return 1
	fi
	"$GT" report --format html -o "$WORK/ok.html" "$f" 2> "$WORK/h-e3" || { WHY="html -o failed"; return 1; }
	expect "html -o said nothing: $(cat "$WORK/h-e3")" \
		grep -q "^gpu-trace report: wrote $WORK/ok.html: [0-9]* jobs of 1 file; open it in a browser" "$WORK/h-e3" || return 1
	head -c 20000 "$f" > "$WORK/h-trunc.dat"
	"$GT" report --format html -o "$WORK/t.html" "$WORK/h-trunc.dat" 2> /dev/null
	expect "a truncated file accepted" [ $? != 0 ] || return 1
	expect "a half-written page left" [ ! -e "$WORK/t.html" ]
}

# Four files on one page: a group per file, every file's rings and jobs drawn,
# the hover finds the last file's job at its moved time, whose ioctl is its own.
test_html_several_files() {
	local s
	need_chromium || return
	for s in two-rings competing lost-window cpu-side; do
		"$ROOT_DIR/build/make-fixture" "$ROOT_DIR/tests/fixtures/formats" "$s" "$WORK/hm-$s.dat" ||
			{ WHY="make-fixture $s failed"; return 1; }
		"$GT" report --jobs --format json "$WORK/hm-$s.dat" > "$WORK/hm-$s.json"
	done
	"$GT" report --format html -o "$WORK/hm.html" "$WORK/hm-two-rings.dat" \
		"$WORK/hm-competing.dat" --ts-offset -50us "$WORK/hm-lost-window.dat" --ts-offset 2ms \
		"$WORK/hm-cpu-side.dat" --ts-offset 1ms \
		2> "$WORK/hm.err" || { WHY="report of four files failed: $(cat "$WORK/hm.err")"; return 1; }
	mkdir -p "$ARTIFACTS"
	python3 "$HTML_CHECK" "$WORK/hm.html" "$WORK/hm-two-rings.json" "$ARTIFACTS/html-several-files.png" --hover \
		--also "$WORK/hm-competing.json:-50000" --also "$WORK/hm-lost-window.json:2000000" \
		--also "$WORK/hm-cpu-side.json:1000000" --ioctls 1 \
		> "$WORK/hm.check" 2>&1 || { WHY="$(head -3 "$WORK/hm.check" | tr '\n' ' ')"; return 1; }
	expect "not 5 rings and 13 jobs" grep -q '5 rings, 13 jobs, mode jobs' "$WORK/hm.check"
}

# Files of two hosts (node07 twice, node08 between): each host a group of lanes
# headed by its name, its files under it in their order; node08 5 s later on UTC.
test_html_several_hosts() {
	local s f=$WORK/hs
	need_chromium || return
	mkdir -p "$f/a" "$f/c"
	"$ROOT_DIR/build/make-fixture" "$ROOT_DIR/tests/fixtures/formats" host-clock "$f/a/n.dat" > /dev/null &&
		"$ROOT_DIR/build/make-fixture" "$ROOT_DIR/tests/fixtures/formats" host-clock-b "$f/b.dat" > /dev/null ||
		{ WHY="make-fixture failed"; return 1; }
	cp "$f/a/n.dat" "$f/c/n.dat"
	for s in a/n b c/n; do
		"$GT" report --jobs --format json "$f/$s.dat" > "$f/$s.json"
	done
	"$GT" report --format html -o "$f/h.html" "$f/a/n.dat" "$f/b.dat" "$f/c/n.dat" 2> "$f/h.err" ||
		{ WHY="report of two hosts failed: $(cat "$f/h.err")"; return 1; }
	mkdir -p "$ARTIFACTS"
	python3 "$HTML_CHECK" "$f/h.html" "$f/a/n.json" "$ARTIFACTS/html-several-hosts.png" \
		--also "$f/b.json:5000000000" --also "$f/c/n.json:0" \
		--hosts "host node07 (2 files)=$f/a/n.dat,$f/c/n.dat;host node08 (1 file)=$f/b.dat" \
		> "$f/h.check" 2>&1 || { WHY="$(head -3 "$f/h.check" | tr '\n' ' ')"; return 1; }
	expect "not 3 rings and 3 jobs: $(cat "$f/h.check")" grep -q '3 rings, 3 jobs, mode jobs' "$f/h.check"
}

# The HIP runtime's lines (hip-kfd: print records) get a row per process; the
# mouse over gemm_big's dispatch at its own time names it.
test_html_hip_row() {
	need_chromium || return
	"$ROOT_DIR/build/make-fixture" "$ROOT_DIR/tests/fixtures/formats" hip-kfd "$WORK/hh.dat" > /dev/null ||
		{ WHY="make-fixture failed"; return 1; }
	"$GT" report --format html -o "$WORK/hh.html" "$WORK/hh.dat" || { WHY="report failed"; return 1; }
	"$GT" report --jobs --format json "$WORK/hh.dat" > "$WORK/hh.json"
	mkdir -p "$ARTIFACTS"
	python3 "$HTML_CHECK" "$WORK/hh.html" "$WORK/hh.json" "$ARTIFACTS/html-hip.png" \
		--tip 'hip:HIP hipapp 4242:1001220000:HIP dispatch gemm_big' \
		--tip 'hip:HIP hipapp 4242:1001085000:HIP queue' > "$WORK/hh.check" 2>&1 ||
		{ WHY="$(head -3 "$WORK/hh.check" | tr '\n' ' ')"; return 1; }
}

# Readable at any zoom: zoomed to 2 us of a 0.16 s trace every tick read
# "+100.000 ms" (three decimals whatever the zoom); the queued waits of the
# jobs in flight shared one lane, so of pipelined's four only the longest
# showed. Now each tick differs and each job queued at once has its lane
# (screenshots: build/test-artifacts/html-zoom*.png).
test_html_zoom_ticks_and_lanes() {
	need_chromium || return
	"$ROOT_DIR/build/make-fixture" "$ROOT_DIR/tests/fixtures/formats" pipelined "$WORK/hz-p.dat" > /dev/null &&
		"$ROOT_DIR/build/make-fixture" "$ROOT_DIR/tests/fixtures/formats" bench:3000 "$WORK/hz-b.dat" > /dev/null ||
		{ WHY="make-fixture failed"; return 1; }
	html_check "$WORK/hz-p.dat" html-zoom-lanes --lanes gfx_0.0.0:4 || return 1
	html_check "$WORK/hz-b.dat" html-zoom --zoom "100000000:100002000:$ARTIFACTS/html-zoom-2us.png" || return 1
	expect "the ticks at 2 us: $(grep '^ticks' "$WORK/html-zoom.check")" \
		grep -q '^ticks at 100000000..100002000 ns: +100.0000 ms +100.0002 ms ' "$WORK/html-zoom.check"
}
