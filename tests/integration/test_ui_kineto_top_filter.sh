#!/bin/bash
# The Top functions pane's PyTorch profiler sources follow the node filter
# like the other panes: `/algo-2` sums the ranks of algo-2 alone ("2 of 4
# ranks", another self total), a filter no node passes leaves none, Esc
# gives every rank back. Its border says the tables cover the whole job
# (the traces' sums are not kept over time, so the view window does not
# cut them).
source "$(dirname "$0")/ui_lib.sh"

ui_synth "$UI_WORK/job" --kineto --kineto-only --nodes 2 --ranks 2 --minutes 2
ui_start 200 60 env TZ=UTC "$SMTOP" --no-config --interval 1 "$UI_WORK/job"
ui_wait '4 Top functions - Kineto ops, whole job' 30
ui_wait 'Kineto ops \| sort self \| all 4 ranks \| [0-9]+ of [0-9]+, self [0-9.]+ [mu]?s' 30
self_all=$(ui_steady 'all 4 ranks \| [0-9]+ of [0-9]+, self [0-9.]+ [mu]?s' 30) || exit 1
self_all=${self_all##*self }
ui_focused | grep -q 'Top' && ui_keys Tab
ui_keys / a l g o - 2 Enter
ui_wait 'Kineto ops \| sort self \| 2 of 4 ranks \| [0-9]+ of [0-9]+, self [0-9.]+ [mu]?s' 10
ui_wait '4 Top functions - Kineto ops, whole job' 5
self_two=$(ui_steady '2 of 4 ranks \| [0-9]+ of [0-9]+, self [0-9.]+ [mu]?s' 20) || exit 1
self_two=${self_two##*self }
[ "$self_two" != "$self_all" ] || ui_fail "algo-2's ranks sum to the whole job's $self_all"
echo "ok: /algo-2: 2 of 4 ranks, self $self_two (all: $self_all)"
ui_keys Escape
ui_wait "Kineto ops \| sort self \| all 4 ranks \| [0-9]+ of [0-9]+, self $self_all" 10
ui_keys / n o n e - s u c h Enter
ui_wait 'Kineto ops \| sort self \| 0 of 4 ranks \| 0 of 0' 10
ui_wait 'none in the traces' 5
ui_keys Escape
ui_wait 'Kineto ops \| sort self \| all 4 ranks' 10
ui_quit
echo "ok: the top functions follow the node filter; the border says whole job"
