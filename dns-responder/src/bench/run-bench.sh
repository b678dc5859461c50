#!/usr/bin/env bash
# dns-responder vs Knot DNS on loopback, same zone, same run (see shared/bench/dns/run-dns-bench.sh).
# Both serve cloud.example.com with N names localtargets-appI (2 A records each). Each server is
# pinned to CPU 0 and dnsperf to CPU 1. Knot uses 1 UDP worker; the responder uses WORKERS UDP
# threads (default 1, the same budget). The responder is warmed up for WARMUP seconds first (that
# window is reported separately as its cold start); then, REPEAT times, Knot and the responder are
# measured alternately for SECS seconds at each number of outstanding queries in QS. Each line
# gives qps, latency percentiles (from dnsperf -v), the server's CPU time per answer and how busy
# core 0 was in all, with the hypervisor's steal (a busy core 0 beyond the server's own share means
# other work competed: the tail then grows by scheduler ticks of 4 ms). Kills only the PIDs it
# started.
#
# Needs: apt-get install -y knot dnsperf; the module built (./mvnw -o -pl dns-responder package).
# Usage: bash dns-responder/src/bench/run-bench.sh [outdir]
#   env: N=10000 SECS=10 WORKERS=1 WARMUP=10 REPEAT=2 QS="100 10" WORK=/tmp/dns-responder-bench
#        JAVA_OPTS (the responder's heap and collector, default below)
#        JAVA_EXTRA="-Xlog:gc*:file=/tmp/resp-gc.log" (more responder JVM options, for diagnosis)
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
MODULE="$(cd "$HERE/../.." && pwd)"
ROOT="$(cd "$MODULE/.." && pwd)"
N="${N:-10000}"; SECS="${SECS:-10}"; WORKERS="${WORKERS:-1}"; WARMUP="${WARMUP:-10}"
REPEAT="${REPEAT:-2}"; QS="${QS:-100 10}"
# What docs/operations.md advises for the responder: a fixed heap, touched at start.
JAVA_OPTS="${JAVA_OPTS:--Xms256m -Xmx256m -XX:+UseSerialGC -XX:+AlwaysPreTouch}"
WORK="${WORK:-/tmp/dns-responder-bench}"
OUT="${1:-$WORK/results}"
KNOT_PORT=15353; RESP_PORT=15354
mkdir -p "$WORK"/{zones,db,run,classes} "$OUT"

# --- the same zone and queries as shared/bench/dns/run-dns-bench.sh ------------------------
{
  echo '$ORIGIN cloud.example.com.'
  echo '$TTL 30'
  echo '@ IN SOA ns1.cloud.example.com. hostmaster.cloud.example.com. 1 3600 600 86400 30'
  echo '@ IN NS ns1'
  echo 'ns1 IN A 127.0.0.1'
  awk -v n="$N" 'BEGIN{for(i=0;i<n;i++){printf "localtargets-app%d IN A 192.0.2.%d\nlocaltargets-app%d IN A 198.51.100.%d\n", i, i%254+1, i, (i/254)%254+1}}'
} > "$WORK/zones/cloud.example.com.zone"
awk -v n="$N" 'BEGIN{for(i=0;i<n;i++) printf "localtargets-app%d.cloud.example.com A\n", i}' > "$WORK/queries.txt"
cat > "$WORK/knot.conf" <<KNOT
server:
    rundir: "$WORK/run"
    listen: 127.0.0.1@$KNOT_PORT
    udp-workers: 1
    tcp-workers: 1
    background-workers: 1
log:
  - target: stderr
    any: warning
database:
    storage: "$WORK/db"
template:
  - id: default
    storage: "$WORK/zones"
    file: "%s.zone"
zone:
  - domain: cloud.example.com
KNOT

# --- the responder's classpath and the bench main ------------------------------------------
(cd "$ROOT" && ./mvnw -o -q -pl dns-responder dependency:build-classpath -Dmdep.outputFile="$WORK/cp.txt" >/dev/null)
CP="$MODULE/target/classes:$(cat "$WORK/cp.txt")"
javac -d "$WORK/classes" -cp "$CP" "$HERE/java/dev/cairn/dnsresponder/bench/BenchResponder.java"

PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done; }
trap cleanup EXIT
wait_port() { for _ in $(seq 1 100); do ss -uln | grep -q "127.0.0.1:$1 " && return 0; sleep 0.2; done; return 1; }
C="taskset -c 1"
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }          # a process's CPU time, in ticks
core0() { awk '/^cpu0 /{print $2 + $3 + $4 + $7 + $8 + $9}' /proc/stat; } # core 0 busy ticks
steal0() { awk '/^cpu0 /{print $9}' /proc/stat; } # of which the hypervisor ran something else
snapshot() { awk '{print $1, $2, $14 + $15}' /proc/[0-9]*/stat 2>/dev/null; } # pid (comm) ticks
others() { # processes other than the server and dnsperf that used > 5 % of a core in the window
  awk -v skip="$3" -v hz="$HZ_TICKS" -v s="$4" 'NR == FNR {t[$1] = $3; next}
    $2 != "(dnsperf)" && $1 != skip && $3 - t[$1] > hz * s * 0.05 {printf " %s %.0f%%", $2, ($3 - t[$1]) / hz / s * 100}' "$1" "$2"
}
HZ_TICKS="$(getconf CLK_TCK)"
latency() { # percentiles of dnsperf -v's per-query latencies
  grep '^> ' "$1" | awk '{print $NF}' | sort -g \
    | awk '{a[NR]=$1} END{if(NR) printf "p50 %.3f ms, p99 %.3f ms, p99.9 %.3f ms", a[int(NR*0.5)]*1000, a[int(NR*0.99)]*1000, a[int(NR*0.999)]*1000}'
}
perf() { # name port outstanding server-pid [seconds]; -v prints every query's latency
  local name="$1" secs="${5:-$SECS}" t0 t1 c0 c1 s0 s1 answers other
  snapshot > "$WORK/procs.before"
  t0="$(ticks "$4")"; c0="$(core0)"; s0="$(steal0)"
  $C dnsperf -v -s 127.0.0.1 -p "$2" -d "$WORK/queries.txt" -l "$secs" -c 1 -T 1 -q "$3" -t 2 \
    > "$WORK/$name.verbose" 2>&1 || true
  t1="$(ticks "$4")"; c1="$(core0)"; s1="$(steal0)"
  snapshot > "$WORK/procs.after"
  other="$(others "$WORK/procs.before" "$WORK/procs.after" "$4" "$secs")"
  answers="$(grep -c '^> ' "$WORK/$name.verbose" || true)"
  {
    grep -v '^> ' "$WORK/$name.verbose"
    echo "RESULT qps $(awk '/Queries per second/{printf "%.0f", $NF}' "$WORK/$name.verbose"), $(latency "$WORK/$name.verbose"), lost $(awk '/Queries lost/{print $3}' "$WORK/$name.verbose"), $(awk -v t=$((t1 - t0)) -v c=$((c1 - c0)) -v st=$((s1 - s0)) -v n="$answers" -v hz="$HZ_TICKS" -v s="$secs" 'BEGIN{printf "server CPU %.2f µs/answer (%.0f%% of core 0), core 0 busy %.0f%% (steal %.0f%%)", n ? t / hz / n * 1e6 : 0, t / hz / s * 100, c / hz / s * 100, st / hz / s * 100}'), other processes:${other:- none}"
  } > "$OUT/$name.txt"
  rm -f "$WORK/$name.verbose"
}

taskset -c 0 knotd -c "$WORK/knot.conf" > "$OUT/knotd.log" 2>&1 &
KNOT_PID=$!; PIDS+=("$KNOT_PID")
# shellcheck disable=SC2086 # word splitting of the JVM options is intended
taskset -c 0 java $JAVA_OPTS ${JAVA_EXTRA:-} -cp "$WORK/classes:$CP" \
  dev.cairn.dnsresponder.bench.BenchResponder "$RESP_PORT" "$N" "$WORKERS" > "$OUT/responder.log" 2>&1 &
RESP_PID=$!; PIDS+=("$RESP_PID")
wait_port "$KNOT_PORT"; wait_port "$RESP_PORT"
LOAD_START="$(cut -d' ' -f1-3 /proc/loadavg)"
# Warm-up of the responder (JIT): not part of the measurements, reported as its cold start.
perf "responder_coldstart_q100" "$RESP_PORT" 100 "$RESP_PID" "$WARMUP"

for r in $(seq 1 "$REPEAT"); do
  for q in $QS; do
    perf "knot_q${q}_run$r" "$KNOT_PORT" "$q" "$KNOT_PID"
    perf "responder_q${q}_run$r" "$RESP_PORT" "$q" "$RESP_PID"
  done
done

result() { sed -n 's/^RESULT //p' "$OUT/$1.txt"; }
qps() { sed -n 's/^RESULT qps \([0-9]*\),.*/\1/p' "$OUT/$1.txt"; }
{
  echo "== summary (N=$N, ${SECS}s each, ${WARMUP}s warm-up, $REPEAT repeats, server on CPU 0, dnsperf on CPU 1, load $LOAD_START -> $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%FT%TZ))"
  echo "responder cold start (first ${WARMUP}s after start, q100): $(result responder_coldstart_q100)"
  for r in $(seq 1 "$REPEAT"); do
    for q in $QS; do
      echo "run $r q$q knot:      $(result "knot_q${q}_run$r")"
      echo "run $r q$q responder: $(result "responder_q${q}_run$r")"
      echo "run $r q$q ratio responder/knot qps: $(awk -v a="$(qps "responder_q${q}_run$r")" -v b="$(qps "knot_q${q}_run$r")" 'BEGIN{printf "%.2f", b ? a / b : 0}')"
    done
  done
} | tee "$OUT/summary.txt"
