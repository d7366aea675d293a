#!/bin/bash
# The include rules of lib/'s layers (README, Layout): data flows one way,
#   cmd -> output -> analysis -> {dat, decode} -> util
#   cmd -> capture -> {tracefs, dat, decode} -> util
# cmd/ calls the engine, never libtracefs, libtraceevent or libtracecmd itself;
# capture and analysis never include each other, lib/ never includes cmd/
# nor prints, and the plugins stand on decode and util alone; no file or folder circles
# (tests/check-circles.py). One grep per rule; each
# prints "ok - RULE" or "not ok - RULE" with the offending lines.
set -u
cd "$(dirname "$0")/.." || exit 2
pass=0
fail=0

# verdict NAME HITS: ok when nothing broke the rule, else the lines that did
verdict() {
	if [ -z "$2" ]; then
		echo "ok - $1"
		pass=$((pass + 1))
	else
		echo "not ok - $1"
		echo "$2" | sed 's/^/    /'
		fail=$((fail + 1))
	fi
}

# rule NAME DIR... -- LAYER...: no file under DIR includes a LAYER's header
rule() {
	local name=$1 dirs=() layers
	shift
	while [ "$1" != -- ]; do dirs+=("$1"); shift; done
	shift
	layers=$(IFS='|'; echo "$*")
	verdict "$name" "$(grep -rnE "#include \"(\.\./)*(lib/)?($layers)/" "${dirs[@]}" --include='*.[ch]')"
}

rule "util stands on nothing of ours" lib/util -- tracefs capture dat decode analysis output
rule "decode includes only util" lib/decode -- tracefs capture dat analysis output
rule "dat includes only util" lib/dat -- tracefs capture decode analysis output
rule "tracefs includes only util" lib/tracefs -- capture dat decode analysis output
rule "capture never includes analysis or output" lib/capture -- analysis output
rule "analysis never includes capture, tracefs or output" lib/analysis -- capture tracefs output
rule "output never includes capture or tracefs" lib/output -- capture tracefs
rule "plugins stand on decode and util" plugins -- tracefs capture dat analysis output

# the same by other roads: a relative path around the folders, or cmd/ from lib/
verdict "lib includes by layer folder, never by ../ or from cmd" \
	"$(grep -rnE '#include "\.\./|#include "(\.\./)*cmd/' lib --include='*.[ch]')"

# lib/ returns errors and never prints or exits: that is cmd/'s (comments aside)
verdict "lib never prints to the terminal or exits" \
	"$(grep -rnE '\b(stderr|stdout)\b|(^|[^a-z_])(printf|puts|perror|exit)\(' lib --include='*.[ch]' |
		grep -vE '^[^:]+:[0-9]+:\s*(/?\*|//)|/\*.*\b(stderr|stdout)\b.*\*/')"

# cmd/ holds argv, printing and exit codes: tracefs and the .dat are the engine's
verdict "cmd never drives tracefs or reads a .dat itself" \
	"$(grep -rnE '\b(tracefs|tep|tracecmd|kbuffer)_[a-z_]+\(|\bsession_[a-z_]+\(' cmd --include='*.[ch]' |
		grep -v 'session_find_tracing_dir(')"

# no files that call or include each other round, no folders that reach each other round
# (from the built objects' symbols: make builds them before this runs)
verdict "no file circle and no folder cycle (calls and includes)" "$(python3 tests/check-circles.py 2>&1)"

# the object make built from a source (only sources that exist: no stale object counts)
object_of() { echo "build/normal/${1%.c}.o"; }

# a format's fields are read in lib/decode alone, through its bounded readers: the joins
# name the fields they read (decode/event-fields.h) and never touch one
verdict "lib outside lib/decode reads no raw event field" "$(
	for c in lib/*/*.c; do
		case $c in lib/decode/*) continue ;; esac
		o=$(object_of "$c")
		[ -f "$o" ] || { echo "$o: not built (make gpu-trace first)"; continue; }
		nm -u "$o" | awk '{ print $2 }' |
			grep -xE 'tep_find_(any_|common_)?field|tep_read_number(_field)?|tep_get_(any_|common_)?field_val|tep_get_field_raw|record_field_[a-z]+' |
			sed "s|^|$c uses |"
	done)"

# one name, one file: two files of one name in two layers read as one thing
verdict "no two source files of one name in lib/ and cmd/" \
	"$(for f in lib/*/*.[ch] cmd/*.[ch]; do basename "$f"; done | sort | uniq -d)"

# a join's state is its own: the session allocates it, the join's file and its accessor
# (timeline_of(), kfd_queues_of(), ...) alone read it; everyone else asks the accessor.
# analysis_state(a, JOIN_X) is asked only by the file that defines the row analysis-joins.c
# puts at JOIN_X (the session's own files, which allocate and free the states, aside)
verdict "a join's state is read by its own file alone" "$(
	grep -nE 'states\[|analysis_state\(' lib/*/*.c cmd/*.c | while IFS=: read -r f line text; do
		case $f in lib/analysis/analysis.c | lib/analysis/analysis-access.c) continue ;; esac
		id=$(grep -oE '(states\[|analysis_state\([^,]*, *)JOIN_[A-Z0-9_]*' <<< "$text" | head -1 |
			grep -o 'JOIN_[A-Z0-9_]*')
		row=$(sed -n "s/^[[:space:]]*\[$id\] = &\([a-z0-9_]*\),\$/\1/p" lib/analysis/analysis-joins.c)
		if [ -z "$id" ] || [ -z "$row" ] || ! grep -q "^const struct analysis_join $row = {" "$f"; then
			echo "$f:$line: $text (${id:-no JOIN_ id}: not this file's row)"
		fi
	done)"

# a join's decode state (the formats and fields it reads, its live keymaps and indices, what
# is in flight) is its own: the header the outputs include holds the model they read, the
# state is defined in the join's .c or its -private.h (#44). A header is taken for one that
# shows decode state when it includes event-fields.h, keymap.h, name-index.h or
# event-parse.h, or has a member of those types by value or a tep_event/tep_handle pointer.
# No exception: the session's own state (struct analysis) is in analysis-private.h.
private_state_exceptions=''
decode_state='#include ("decode/event-fields|"util/keymap|"util/name-index|<event-parse)\.h'
decode_state+='|^[[:space:]]+struct (event_fields|keymap|name_index)[[:space:]]+[a-z_]'
decode_state+='|^[[:space:]]+(const[[:space:]]+)?struct tep_(event|handle)[[:space:]]*\*[[:space:]]*[a-z_]+;'
verdict "output includes no join's private state" "$(
	grep -noE '#include "analysis/[a-z0-9-]+\.h"' lib/output/*.[ch] |
	while IFS=: read -r f line inc; do
		h=${inc#*\"}
		h=${h%\"}
		name=$(basename "$h" .h)
		case " $private_state_exceptions " in *" $name "*) continue ;; esac
		case $name in
		*-private)
			echo "$f:$line: includes $h, a join's private header"
			continue
			;;
		esac
		grep -nE "$decode_state" "lib/$h" |
			sed "s|^|$f:$line: includes $h, whose line |"
	done)"

# a join's -private.h is for its own .c, or the files it is split into (NAME-*.c: the
# job join's timeline-stats.c), and tests/, which read the state in the unit tests
verdict "a join's private header is its own file's" "$(
	grep -rnoE '#include "analysis/[a-z0-9-]+-private\.h"' lib cmd --include='*.[ch]' |
	while IFS=: read -r f line inc; do
		h=${inc#*\"}
		h=${h%\"}
		own=lib/${h%-private.h}
		case $f in "$own.c" | "$own"-*.c) ;; *) echo "$f:$line: includes $h" ;; esac
	done)"

# record's engine runs the capture sources from capture_sources[] alone (capture-source.h)
verdict "record's engine calls no capture source by name" "$(
	syms=$(mktemp)
	for c in lib/capture/source-*.c; do
		nm --defined-only -g "$(object_of "$c")" 2>&1 | awk 'NF == 3 { print $3 } NF != 3'
	done > "$syms"
	for c in lib/*/*.c cmd/*.c; do
		case $c in */source-*.c | */capture-sources.c) continue ;; esac
		[ -f "$(object_of "$c")" ] || { echo "$(object_of "$c"): not built (make gpu-trace first)"; continue; }
		nm -u "$(object_of "$c")" | awk '{ print $NF }' | grep -xF -f "$syms" |
			sed "s|^|$c uses |"
	done
	grep -v '^[A-Za-z_][A-Za-z0-9_]*$' "$syms"
	rm -f "$syms")"

# every function a lib/ header exports says what it does, kernel-doc style
verdict "every exported function has a kernel-doc comment" "$(python3 tests/check-kernel-doc.py)"

# every source file of lib/ sits in a layer's folder
verdict "every lib file in a layer folder" "$(find lib -maxdepth 1 -type f -name '*.[ch]')"

echo "$pass passed, $fail failed, 0 skipped"
[ "$fail" = 0 ]
