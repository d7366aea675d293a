# bash completion for gpu-trace                              -*- shell-script -*-
# Subcommands, their options (read from `gpu-trace help CMD`, so they never
# drift from the binary), presets, tracers, report formats, and event systems
# and events from tracefs when it is readable.

_gpu_trace_tracefs()
{
	local d
	for d in /sys/kernel/tracing /sys/kernel/debug/tracing; do
		[[ -r $d/events ]] && { printf '%s' "$d"; return; }
	done
}

_gpu_trace_events()
{
	local cur=$1 tfs sys
	tfs=$(_gpu_trace_tracefs)
	[[ -n $tfs ]] || return
	if [[ $cur == *:* ]]; then
		sys=${cur%%:*}
		[[ -d $tfs/events/$sys ]] || return
		compgen -P "$sys:" -W "$(find "$tfs/events/$sys" -mindepth 1 -maxdepth 1 -type d -printf '%f ' 2>/dev/null)" -- "${cur#*:}"
	else
		compgen -W "$(find "$tfs/events" -mindepth 1 -maxdepth 1 -type d -printf '%f ' 2>/dev/null)" -- "$cur"
	fi
}

_gpu_trace()
{
	local cur prev words cword cmd i opts
	COMPREPLY=()
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD - 1]}
	cmd=
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		-*) ;;
		*) cmd=${COMP_WORDS[i]}; break ;;
		esac
	done
	if [[ -z $cmd ]]; then
		COMPREPLY=($(compgen -W "record report compare fleet top check list reset help --help --version" -- "$cur"))
		return
	fi
	# after `record ... --` the workload's own command line
	for ((i = 2; i < COMP_CWORD; i++)); do
		if [[ ${COMP_WORDS[i]} == -- && ($cmd == record || $cmd == top) ]]; then
			COMPREPLY=($(compgen -c -- "$cur"))
			return
		fi
	done
	case $prev in
	--preset)
		COMPREPLY=($(compgen -W "amd drm i915 xe virtio nvidia all-gpu" -- "$cur"))
		return ;;
	-p | --tracer)
		COMPREPLY=($(compgen -W "function_graph function nop" -- "$cur"))
		return ;;
	--format)
		if [[ $cmd == fleet ]]; then
			COMPREPLY=($(compgen -W "text json csv" -- "$cur"))
		else
			COMPREPLY=($(compgen -W "text csv json perfetto html parquet" -- "$cur"))
		fi
		return ;;
	--sort)
		COMPREPLY=($(compgen -W "jobs busy wait name" -- "$cur"))
		return ;;
	-C | --clock)
		COMPREPLY=($(compgen -W "mono mono_raw boot local global" -- "$cur"))
		return ;;
	-e | --event)
		compopt -o nospace 2>/dev/null
		COMPREPLY=($(_gpu_trace_events "$cur"))
		return ;;
	-o | --output | -i | --input | --trigger-file)
		COMPREPLY=($(compgen -f -- "$cur"))
		return ;;
	-P | --pid)
		COMPREPLY=($(compgen -W "$(ps -e -o pid= 2>/dev/null)" -- "$cur"))
		return ;;
	-b | -f | -l | -g | -d | -n | --duration | --max-graph-depth | --comm | --ring | --from | --to | --min-latency | --top | --ts-offset | --min-change | --trigger | --after | --every | --min-gap | --keep | -j | --jobs)
		return ;;
	esac
	case $cmd in
	help)
		COMPREPLY=($(compgen -W "record report compare fleet top check list reset" -- "$cur"))
		return ;;
	esac
	if [[ $cur == -* ]]; then
		# the option column only: "  -o, --output FILE   text" (the text names
		# other commands' options, as report's --queues names record --kfd-args)
		opts=$("${COMP_WORDS[0]}" help "$cmd" 2>/dev/null | grep -E '^ +-' |
			sed -E 's/^ +//; s/   .*//' | grep -oE '(^|[ ,])--?[a-zA-Z][a-zA-Z-]*' | tr -d ' ,' | sort -u)
		COMPREPLY=($(compgen -W "$opts --" -- "$cur"))
		return
	fi
	[[ $cmd == report || $cmd == compare || $cmd == fleet ]] && COMPREPLY=($(compgen -f -X '!*.dat*' -- "$cur") $(compgen -d -- "$cur"))
}
complete -F _gpu_trace gpu-trace
