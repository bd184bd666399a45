#!/bin/bash
# A live window across midnight (CI once ran at 23:58 UTC): the header
# dates only the window's start, and the job's folder stays readable at
# every size, because the header cuts the path's head, not the job's
# name. Local time is put at 00:02 with a POSIX TZ whose offset is
# computed from now, so this runs at any hour.
source "$(dirname "$0")/ui_lib.sh"

JOB="$UI_WORK/runs/gpt-neox-midnight-run/profiler-output"

# A zone in which it is 00:02:00 now: TZ "MID-HH:MM:SS" is UTC+HH:MM:SS.
tz_at_0002() {
    local s off sign=-
    s=$(($(date -u +%s) % 86400))
    off=$(((120 - s + 86400) % 86400))
    ((off > 43200)) && off=$((off - 86400))
    ((off < 0)) && { sign=+; off=$((-off)); }
    printf 'MID%s%02d:%02d:%02d' "$sign" $((off / 3600)) $((off % 3600 / 60)) $((off % 60))
}

# The job ends now, so the 5-minute live window is 23:57-00:02 local.
ui_synth "$JOB" --nodes 2 --minutes 1
tz=$(tz_at_0002)
date_re='[0-9]{4}-[0-9]{2}-[0-9]{2}'
for size in "80 24" "100 30" "120 40" "200 60"; do
    read -r cols rows <<<"$size"
    # shellcheck disable=SC2086
    ui_start $cols $rows env TZ="$tz" "$SMTOP" "$JOB"
    ui_wait "$UI_FOLLOW" 20
    head=$(ui_screen | head -1)
    grep -Eq "$date_re 23:5[0-9]:[0-9]{2}-00:0[0-9]:[0-9]{2} MID" <<<"$head" ||
        ui_fail "${cols}x$rows: the window across midnight is not 'DATE 23:5x-00:0x MID'"
    ! grep -Eq "$date_re.*$date_re" <<<"$head" ||
        ui_fail "${cols}x$rows: the header dates both ends of a live window"
    grep -q 'gpt-neox-midnight-run' <<<"$head" ||
        ui_fail "${cols}x$rows: the job's folder was cut from the header"
    echo "ok: ${cols}x$rows: ${head:0:$cols}"
done
# Wide enough for the whole tail: the folder keeps its profiler-output.
ui_screen | head -1 | grep -q 'gpt-neox-midnight-run/profiler-output' ||
    ui_fail "200x60: the path's tail lost profiler-output"
ui_quit
echo "ok: midnight header"
