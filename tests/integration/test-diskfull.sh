# A disk that fills while recording: one line, tracefs restored, and what was
# captured kept as <output>.partial that report and trace-cmd read.
# shellcheck shell=bash

test_disk_full_keeps_a_readable_partial() {
	local small=$WORK/small kb rc
	command -v mount > /dev/null || { WHY="mount not available"; return 77; }
	mkdir -p "$small"
	# room for the header (kallsyms dominates) and 16 MB of data, no more
	kb=$(( $(wc -c < /proc/kallsyms) / 1024 + 4096 + 16384 ))
	mount -t tmpfs -o size=${kb}k tmpfs "$small" || { WHY="cannot mount a tmpfs"; return 77; }
	tracefs_snapshot > "$WORK/snap.before"
	"$GT" record -e syscalls:sys_enter_getppid -e syscalls:sys_exit_getppid -o "$small/x.dat" -- \
		"$ROOT_DIR/build/storm" 4000000 > /dev/null 2> "$WORK/full.err"
	rc=$?
	cp "$small/x.dat.partial" "$WORK/kept.dat" 2> /dev/null
	ls -A "$small" > "$WORK/full.ls"
	umount "$small"
	expect "exit $rc, want 125" [ $rc = 125 ] || return 1
	expect "no line naming the full disk and the kept file: $(tail -1 "$WORK/full.err")" \
		grep -q "No space left on device; kept what was recorded up to then in $small/x.dat.partial" "$WORK/full.err" || return 1
	expect "files left: $(tr '\n' ' ' < "$WORK/full.ls")" [ "$(cat "$WORK/full.ls")" = x.dat.partial ] || return 1
	"$GT" report "$WORK/kept.dat" > "$WORK/kept.txt" 2> /dev/null
	expect "report cannot read the partial file (exit $?)" grep -Eq '^records  [1-9][0-9]* ' "$WORK/kept.txt" || return 1
	expect "trace-cmd cannot read the partial file" trace-cmd report -i "$WORK/kept.dat" > /dev/null 2>&1 || return 1
	same_as_before "a full disk"
}
