# bench_lib.sh: what every benchmark script may share, sourced by them.

# Median of the numbers on stdin, one a line (the mean of the middle two
# when their count is even).
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# bench_job_dir NAME WHO: the directory of job NAME (<nodes>n_<minutes>m)
# under $JOBS_DIR, generated with $SMTOP synth (8 GPUs, 32 CPUs, 500 ms,
# system + traces) when missing; a lock directory keeps two runs sharing
# JOBS_DIR from generating the same job. WHO names the caller in messages.
bench_job_dir() {
    local name=$1 who=$2 dir="$JOBS_DIR/$1" nodes minutes
    if [ -f "$dir/.done" ] || { [ -d "$dir" ] && [ ! -e "$JOBS_DIR/$name.lock" ]; }; then
        echo "$dir"
        return
    fi
    [[ $name =~ ^([0-9]+)n_([0-9]+)m$ ]] ||
        { echo "$who: job name '$name' is not <nodes>n_<minutes>m" >&2; exit 1; }
    nodes=${BASH_REMATCH[1]} minutes=${BASH_REMATCH[2]}
    mkdir "$JOBS_DIR/$name.lock" ||
        { echo "$who: $JOBS_DIR/$name.lock exists: another run is generating it" >&2; exit 1; }
    local cmd=("$SMTOP" synth --nodes "$nodes" --gpus 8 --cpus 32 --minutes "$minutes"
               --interval-ms 500 --start 1700000000 --seed 1 --out "$dir")
    echo "generating: ${cmd[*]}" >&2
    "${cmd[@]}" >&2
    echo "${cmd[*]}" >"$dir/.cmd"
    touch "$dir/.done"
    rmdir "$JOBS_DIR/$name.lock"
    echo "$dir"
}

# bench_report_setup WHO: the checks and set-up the `report` benchmarks
# (bench_memory, bench_linear) share: SMTOP, BASELINE and REPS from the
# environment, /usr/bin/time in TIME, a scratch dir in TMP (removed at
# exit) and JOBS_DIR (default: TMP/jobs). Exits with a message naming WHO
# when something is missing.
bench_report_setup() {
    local who=$1
    SMTOP=${SMTOP:-build/smtop}
    BASELINE=${BASELINE:-}
    REPS=${REPS:-3}
    TIME=/usr/bin/time
    [ -x "$TIME" ] || { echo "$who: $TIME not found (Debian: apt-get install time)" >&2; exit 1; }
    [ -x "$SMTOP" ] || { echo "$who: $SMTOP is not an executable; build first or set SMTOP" >&2; exit 1; }
    [ -z "$BASELINE" ] || [ -x "$BASELINE" ] ||
        { echo "$who: BASELINE=$BASELINE is not an executable" >&2; exit 1; }
    TMP=$(mktemp -d "${TMPDIR:-/tmp}/smtop_$who.XXXXXX")
    trap 'rm -rf "$TMP"' EXIT
    JOBS_DIR=${JOBS_DIR:-$TMP/jobs}
    mkdir -p "$JOBS_DIR"
}
