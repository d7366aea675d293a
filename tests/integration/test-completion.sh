# NO_ROOT (event completion reads tracefs when it can; the rest needs nothing)
# bash completion (completion/gpu-trace.bash) as bash runs it.
# shellcheck shell=bash

# complete WORDS...: what bash would offer for the last word (may be empty)
complete_words() {
	bash -c '
		gt=$1; shift
		PATH=$(dirname "$gt"):$PATH
		. "'"$ROOT_DIR"'/completion/gpu-trace.bash"
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
		_gpu_trace gpu-trace "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
		printf "%s\n" "${COMPREPLY[@]}"' _ "$GT_LINK" "$@"
}

test_bash_completion() {
	command -v bash > /dev/null || { WHY="no bash"; return 77; }
	GT_LINK=$WORK/bin/gpu-trace
	mkdir -p "$WORK/bin" && ln -sf "$GT" "$GT_LINK"
	expect "subcommands: $(complete_words gpu-trace re | tr '\n' ' ')" \
		[ "$(complete_words gpu-trace re | sort | tr '\n' ' ')" = "record report reset " ] || return 1
	expect "record options from its help: $(complete_words gpu-trace record --sys | tr '\n' ' ')" \
		[ "$(complete_words gpu-trace record --sys)" = --system-wide-events ] || return 1
	expect "report options: --workload-only missing" \
		grep -qx -- --workload-only <(complete_words gpu-trace report --work) || return 1
	# report's help names record --kfd-args in its text: not an option of report's
	expect "report offers record's --kfd-args" [ -z "$(complete_words gpu-trace report --kfd)" ] || return 1
	expect "report offers -o or --force no more: $(complete_words gpu-trace report --f | tr '\n' ' ')" \
		grep -qx -- --force <(complete_words gpu-trace report --f) || return 1
	expect "top and its sort keys" [ "$(complete_words gpu-trace top --sort w)" = wait ] &&
		[ "$(complete_words gpu-trace t)" = top ] || return 1
	expect "presets" [ "$(complete_words gpu-trace record --preset a | sort | tr '\n' ' ')" = "all-gpu amd " ] || return 1
	expect "report formats" [ "$(complete_words gpu-trace report --format j)" = json ] || return 1
	expect "fleet: the subcommand, its formats and options" [ "$(complete_words gpu-trace fl)" = fleet ] &&
		[ "$(complete_words gpu-trace fleet --format c)" = csv ] &&
		[ -z "$(complete_words gpu-trace fleet --format p)" ] &&
		grep -qx -- --min-change <(complete_words gpu-trace fleet --min) || return 1
	expect "the workload's command after --" grep -qx 'true' <(complete_words gpu-trace record -e sched -- tru) || return 1
	if [ -r "$TFS/events/sched" ]; then
		expect "event systems from tracefs" grep -qx sched <(complete_words gpu-trace record -e sch) || return 1
		expect "events of a system" grep -qx sched:sched_switch <(complete_words gpu-trace record -e sched:sched_sw) || return 1
	fi
}
