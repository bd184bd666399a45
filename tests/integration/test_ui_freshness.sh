#!/bin/bash
# The header tells the truth about a job's liveness:
# - LIVE (status.live colour) while a writer is adding samples;
# - STALE <age> in the warning colour once it stops, within the scan
#   interval plus max(4 sampling intervals, 10 s);
# - data from 2020: the date, the zone and ENDED <age> ago;
# - today's data: times without a date, the zone always;
# - --utc shows UTC where the local zone would be another.
source "$(dirname "$0")/ui_lib.sh"

export TZ=UTC0
# The SGR sequence (colour) right before a word in the header line.
badge_sgr() { ui_screen_esc | head -1 | grep -o $'\e\\[[0-9;]*m *'"$1" | head -1 | grep -o $'\e\\[[0-9;]*m' | tr -d '\033'; }

# --- a live writer, then it stops
"$SMTOP" synth --out "$UI_WORK/live" --nodes 2 --minutes 1 --live --seed 3 >/dev/null 2>&1 &
writer=$!
trap 'kill $writer 2>/dev/null; ui_cleanup' EXIT
ui_start 160 40 env TZ=UTC0 "$SMTOP" --interval 1 "$UI_WORK/live"
ui_wait '2 nodes' 20
ui_wait ' LIVE *$'
live_sgr=$(badge_sgr LIVE)
end=$((SECONDS + 3))   # three more scans while the writer writes: LIVE throughout
while ((SECONDS < end)); do
    ui_screen | head -1 | grep -q ' LIVE *$' || ui_fail "LIVE dropped while the writer runs"
    sleep 0.2
done
kill $writer
wait $writer 2>/dev/null
stopped=$SECONDS
ui_wait ' STALE [0-9]+ s *$' 40
took=$((SECONDS - stopped))
stale_sgr=$(badge_sgr STALE)
ui_wait 'newest sample [0-9]+ s old'
[ -n "$live_sgr" ] && [ -n "$stale_sgr" ] || ui_fail "no colour on the badges ($live_sgr / $stale_sgr)"
[ "$live_sgr" != "$stale_sgr" ] || ui_fail "STALE drawn like LIVE ($live_sgr)"
[ "$took" -le 25 ] || ui_fail "STALE only ${took}s after the writer stopped (limit 11 s + a scan)"
ui_quit
echo "ok: LIVE while writing ($live_sgr), STALE ${took}s after the writer stopped ($stale_sgr)"

# --- a job from 2020: date, zone, ENDED
"$SMTOP" synth --out "$UI_WORK/old" --start 1591747200 --minutes 10 --nodes 2 >/dev/null
ui_start 160 40 env TZ=UTC0 "$SMTOP" "$UI_WORK/old"
ui_wait '2 nodes' 20
# An ended job opens on the whole job (issue 26): its 10 minutes.
ui_wait '\| 2020-06-10 00:00:00-00:09:59 UTC \(10 m 00 s\) \|'
ui_wait ' ENDED [0-9]+ y ago *$'
ui_screen | head -1 | grep -q 'LIVE' && ui_fail "data from 2020 shown as LIVE"
ui_quit
echo "ok: 2020 data: date, zone, ENDED"

# --- today's data: no date, the zone; another zone, and --utc
# A zone where it is about noon now, so the last minutes are "today" at
# any hour the suite runs (in UTC they are yesterday's just after 00:00).
NOON="NOON$(( $(date -u +%-H) - 12 ))"
"$SMTOP" synth --out "$UI_WORK/today" --minutes 3 --nodes 2 >/dev/null
ui_start 160 40 env TZ="$NOON" "$SMTOP" "$UI_WORK/today"
ui_wait '2 nodes' 20
ui_wait '\| [0-9]{2}:[0-9]{2}:[0-9]{2}-[0-9]{2}:[0-9]{2}:[0-9]{2} NOON \((5 m 00 s|[23] m [0-9]{2} s)\) \|'
ui_quit
NY='EST5EDT,M3.2.0,M11.1.0'
ui_start 160 40 env TZ="$NY" "$SMTOP" "$UI_WORK/old"
ui_wait '\| 2020-06-09 20:0[0-9]:[0-9:]+-20:[01][0-9]:[0-9:]+ EDT \(10 m 00 s\) \|' 20
ui_quit
ui_start 160 40 env TZ="$NY" "$SMTOP" --utc "$UI_WORK/old"
ui_wait '\| 2020-06-10 00:0[0-9]:[0-9:]+-00:[01][0-9]:[0-9:]+ UTC \(10 m 00 s\) \|' 20
ui_quit
echo "ok: zone always shown; --utc"
