# bench_lib.sh: what every benchmark script may share, sourced by them.

# Median of the numbers on stdin, one a line (the mean of the middle two
# when their count is even).
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
