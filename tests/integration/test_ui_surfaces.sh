#!/bin/bash
# One truth on every surface (issue 33), the screens: test_surfaces.sh holds
# the command-line surfaces to report --json; this holds the real binary in
# tmux to it. For a Debugger system job on 2 nodes, a Kineto job and a
# host-bound Kineto job (shapes of test_surfaces.sh), and the nccl_data
# sample where ../shared/samples is:
# - the job list (`smtop jobs DIR`; `smtop DIR` opens a dashboard even on a
#   folder of jobs) at 200x60: each row's STEP, ALRT and IDLE-GPU-H; at
#   80x24 its ALRT;
# - the dashboard (`smtop JOB`) at 200x60 and 80x24: the header's nodes,
#   the Alerts pane's count and its high/medium/low split, the verdict's
#   "GPU idle N %" (absent where the report has none), the Steps pane's n
#   for the node it opens on; at 200x60 also that node's p50 and the
#   verdict's "GPU < 10 % in N % of samples" (the idle GPU-hours' share);
# each is the report's figure rounded as the screen rounds it
# (ui_surfaces.py, which also shows each check a wrong figure and fails
# unless it is rejected). A figure is read only once all of a screen's
# hold still: the traces arrive one file a tick, and a figure read at its
# first appearance can belong to half the ranks.
source "$(dirname "$0")/ui_lib.sh"
command -v python3 >/dev/null || { echo "SKIPPED: python3 not found"; exit 77; }
PY="$SMTOP_SRC/tests/integration/ui_surfaces.py"
D="$UI_WORK/jobs"
"$SMTOP" synth --out "$D/sys/profiler-output" --nodes 2 --minutes 2 --seed 3 >/dev/null || ui_fail "synth sys"
"$SMTOP" synth --out "$D/kin" --kineto --gpus 2 --minutes 2 --seed 3 >/dev/null || ui_fail "synth kin"
"$SMTOP" synth --out "$D/hostb" --kineto --host-bound --nodes 2 --gpus 2 --minutes 2 --seed 5 \
    >/dev/null || ui_fail "synth hostb"
names="sys kin hostb"
for n in $names; do
    "$SMTOP" report --json "$D/$n" >"$UI_WORK/$n.json" 2>/dev/null || ui_fail "report --json $n"
done
# settle SECS PAT...: the first match of each PAT (grep -oE), each ended
# by \x1f (a blank would let read drop an empty field), once the whole set
# has read the same for 2 s: ui_steady for several figures at once (read
# one by one, the first could hold still while the next still changes).
# The first PAT must match; any other may be absent ("").
settle() {
    local secs=$1 end=$((SECONDS + $1)) last="" now same=0 p scr
    shift
    while ((SECONDS < end)); do
        scr=$(ui_screen)
        now=""
        for p in "$@"; do now+="$(grep -oE -- "$p" <<<"$scr" | head -1)"$'\x1f'; done
        if [ -n "${now%%$'\x1f'*}" ] && [ "$now" = "$last" ]; then
            same=$((same + 1))
            ((same >= 4)) && { printf '%s' "$now"; return 0; }
        else
            same=0
        fi
        last=$now
        sleep 0.5
    done
    ui_fail "the figures never held still in $secs s (last: $last)" >&2
}

# --- the job list
list_rows() {   # SIZE LABELS: each job's row, once the rows hold still
    local size=$1 n pats=() args out i end
    ui_start $size "$SMTOP" jobs "$D"
    ui_wait '3 jobs' 30
    for n in $names; do pats+=("^$n +.*"); done
    end=$((SECONDS + 60))
    while :; do
        out=$(settle 40 "${pats[@]}") || exit 1
        args=()
        i=0
        for n in $names; do i=$((i + 1)); args+=("$n" "$(cut -d$'\x1f' -f$i <<<"$out")"); done
        # a row can hold still for 2 s while its job is still read: until
        # the deadline, a disagreement is read again
        out=$(python3 "$PY" list "$UI_WORK" "$(ui_screen | sed -n 2p)" "$2" "${args[@]}") && break
        ((SECONDS < end)) || ui_fail "jobs list at $size: $out"
        echo "note: jobs list at ${size/ /x} read again after:" $out
        sleep 1
    done
    ui_quit
    echo "ok: jobs list at ${size/ /x}:" $out
}
list_rows "200 60" STEP,ALRT,IDLE-GPU-H
list_rows "80 24" ALRT

# --- the dashboard
dash() {   # NAME SIZE [DIR]: the job $D/NAME, or DIR
    local n=$1 size=$2 out f end
    ui_start $size "$SMTOP" "${3:-$D/$n}"
    ui_wait "$UI_FOLLOW" 30
    end=$((SECONDS + 60))
    while :; do
        out=$(settle 40 '\| [0-9]+ nodes? \|' '[0-9]+ alerts?: [0-9]+ high, [0-9]+ medium, [0-9]+ low' \
            'GPU idle [0-9.]+ %' '│>?[^ │]+  TRAIN  \(' '│n [0-9]+  mean' '│p50 [0-9.]+ [mu]?s' \
            'GPU < 10 % in [0-9.]+ % of samples') || exit 1
        IFS=$'\x1f' read -r -a f <<<"$out"
        out=$(python3 "$PY" dash "$UI_WORK/$n.json" "$([ "$size" = "200 60" ] && echo 1)" "${f[@]:0:7}") && break
        ((SECONDS < end)) || ui_fail "$n at $size: $out"
        echo "note: $n at ${size/ /x} read again after:" $out
        sleep 1
    done
    ui_quit
    echo "ok: ${size/ /x}: $out"
}
for n in $names; do
    dash "$n" "200 60"
    dash "$n" "80 24"
done
# real traces (rank 0 of 2, NCCL on an A100): without them (a fresh clone)
# the synthetic part above still ran and counts
S=${SMTOP_SAMPLES:-}/kineto/nccl_data
if [ -n "${SMTOP_SAMPLES:-}" ] && [ -d "$S" ]; then
    "$SMTOP" report --json "$S" >"$UI_WORK/nccl_data.json" 2>/dev/null || ui_fail "report --json $S"
    dash nccl_data "200 60" "$S"
else
    echo "note: ../shared/samples not found: the nccl_data sample is skipped"
fi
