# A stage of the suite that is a script of its own (tests/service, tests/slurm):
# its lines "ok - STAGE: ..." and its last line "N passed, N failed, N skipped"
# as tests/run-all.sh counts them. Source it with STAGE set; it brings the
# integration suite's helpers (tracefs_snapshot) and replaces their ok/not_ok.
# shellcheck shell=bash
# shellcheck source=integration/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/integration/lib.sh"
pass=0
fail=0
skipped=0

ok() { echo "ok - $STAGE: $1"; pass=$((pass + 1)); }
not_ok() { echo "not ok - $STAGE: $1: $2"; fail=$((fail + 1)); }
finish() { echo "$pass passed, $fail failed, $skipped skipped"; [ "$fail" = 0 ]; exit; }
skip_all() { echo "SKIP - $STAGE: $1"; skipped=$((skipped + 1)); finish; }

# tracefs_before DIR / tracefs_as_found DIR WHAT: this kernel's tracefs
# (the top-level buffer one page deep) before the stage and after, compared
tracefs_before() { SNAPSHOT_BUFFER_PAGES=1 tracefs_snapshot > "$1/tracefs.before"; }
tracefs_as_found() {
	SNAPSHOT_BUFFER_PAGES=1 tracefs_snapshot > "$1/tracefs.after"
	if diff -u "$1/tracefs.before" "$1/tracefs.after" > "$1/tracefs.diff"; then
		ok "$2 left this kernel's tracefs as found"
	else
		not_ok "$2 left tracefs as found" "$(head -8 "$1/tracefs.diff" | tr '\n' ' ')"
	fi
}
