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
