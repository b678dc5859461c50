#!/usr/bin/env bash
# Per-thread CPU of a benchmark JVM, JVM-internal threads included (GC, JIT compiler, RocksDB),
# which Java's ThreadMXBean and JFR's execution samples leave out.
#
#   benchmarks/thread-cpu.sh sample <dir> [pattern]   every 2 s, snapshot utime+stime of each thread
#       of the first java process whose command line matches pattern (default: surefirebooter, the
#       Maven test JVM) into <dir>/snap.<epoch> (tid name utime stime); runs until killed.
#   benchmarks/thread-cpu.sh list <dir>                CPU seconds of the threads named like the
#       pattern (default 'StreamThread|GlobalStream' truncated names start gslb-bench) per snapshot,
#       to find a replay's window (the index where they start and stop growing).
#   benchmarks/thread-cpu.sh window <dir> <from> <to>  CPU seconds per thread kind (digits folded)
#       between snapshot indexes from and to, with the share of one core.
set -euo pipefail
cmd=${1:?usage: thread-cpu.sh sample|list|window <dir> ...}
dir=${2:?a directory}
tick=$(getconf CLK_TCK)

snaps() { ls "$dir"/snap.* | sort -t. -k2 -n; }

case "$cmd" in
  sample)
    pattern=${3:-surefirebooter}
    mkdir -p "$dir"
    while true; do
      pid=""
      for p in $(pgrep -f "$pattern" || true); do
        [ "$(cat /proc/$p/comm 2>/dev/null)" = java ] && { pid=$p; break; }
      done
      if [ -n "$pid" ]; then
        out="$dir/snap.$(date +%s.%N)"
        # One awk over every thread's stat (a fork per thread made a snapshot take seconds on a
        # loaded machine and took a core from the benchmark). A thread that ends between the glob
        # and the read is skipped. stat is "tid (comm) state ...": comm may hold spaces and
        # parentheses, so the fields are counted from the last ')'; utime and stime are the 12th
        # and 13th after it.
        awk '{
          lp = index($0, "("); rp = 0
          for (i = length($0); i > 0; i--) if (substr($0, i, 1) == ")") { rp = i; break }
          name = substr($0, lp + 1, rp - lp - 1); gsub(/ /, "_", name)
          n = split(substr($0, rp + 2), f, " ")
          print $1, name, f[12], f[13]
          nextfile
        }' /proc/"$pid"/task/*/stat 2>/dev/null > "$out" || true
      fi
      sleep 2
    done
    ;;
  list)
    pattern=${3:-^gslb-bench}
    i=0
    for f in $(snaps); do
      awk -v i="$i" -v f="${f##*/snap.}" -v pat="$pattern" -v tick="$tick" \
        '$(NF - 2) ~ pat {s += ($(NF - 1) + $NF) / tick} END {printf "%d %s %.1f\n", i, f, s}' "$f"
      i=$((i + 1))
    done
    ;;
  window)
    from=${3:?from index}; to=${4:?to index}
    mapfile -t all < <(snaps)
    a=${all[$from]}; b=${all[$to]}
    seconds=$(echo "${b##*/snap.} - ${a##*/snap.}" | bc -l)
    awk -v tick="$tick" -v secs="$seconds" '
      # A thread is its id (4 fields: tid name utime stime); threads that ended before the window
      # closed drop out, so a window should lie within one replay.
      { id = $1; name = $(NF - 2); gsub(/[0-9]+/, "N", name); cpu = ($(NF - 1) + $NF) / tick }
      FNR == NR { before[id] = cpu; next }
      { kind[name] += cpu - before[id]; total += cpu - before[id] }
      END {
        printf "window %.1f s, %.2f cores\n", secs, total / secs
        for (k in kind) printf "%-30s %8.2f s %6.1f %%\n", k, kind[k], 100 * kind[k] / secs
      }' "$a" "$b" | sort -k2 -n -r
    ;;
  *) echo "unknown command $cmd" >&2; exit 2 ;;
esac
