#!/usr/bin/env bash
# dns-responder vs Knot DNS on loopback, same zone, same run (see shared/bench/dns/run-dns-bench.sh).
# Both serve cloud.example.com with N names localtargets-appI (2 A records each). Each server is
# pinned to CPU 0 and dnsperf to CPU 1. Knot uses 1 UDP worker; the responder uses WORKERS UDP
# threads (default 1, the same budget). Kills only the PIDs it started.
#
# Needs: apt-get install -y knot dnsperf; the module built (./mvnw -o -pl dns-responder package).
# Usage: bash dns-responder/src/bench/run-bench.sh [outdir]
#   env: N=10000 SECS=10 WORKERS=1 WARMUP=10 OUT=/tmp/dns-responder-bench
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
MODULE="$(cd "$HERE/../.." && pwd)"
ROOT="$(cd "$MODULE/.." && pwd)"
N="${N:-10000}"; SECS="${SECS:-10}"; WORKERS="${WORKERS:-1}"; WARMUP="${WARMUP:-10}"
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
perf() { # name port outstanding; -v prints every query's latency, from which p99 is taken
  echo "### $1" > "$OUT/$1.txt"
  $C dnsperf -v -s 127.0.0.1 -p "$2" -d "$WORK/queries.txt" -l "$SECS" -c 1 -T 1 -q "$3" -t 2 \
    > "$WORK/$1.verbose" 2>&1 || true
  grep -v '^> ' "$WORK/$1.verbose" >> "$OUT/$1.txt"
  grep '^> ' "$WORK/$1.verbose" | awk '{print $NF}' | sort -g \
    | awk '{a[NR]=$1} END{if(NR) printf "p50 %.3f ms, p99 %.3f ms, p99.9 %.3f ms (%d answers)\n", a[int(NR*0.5)]*1000, a[int(NR*0.99)]*1000, a[int(NR*0.999)]*1000, NR}' \
    >> "$OUT/$1.txt"
  rm -f "$WORK/$1.verbose"
}

taskset -c 0 knotd -c "$WORK/knot.conf" > "$OUT/knotd.log" 2>&1 &
PIDS+=($!)
# One core: one GC thread and few compiler threads, a young generation large enough that
# collections are rare and short.
taskset -c 0 java -Xms512m -Xmx512m -Xmn384m -XX:+UseParallelGC -XX:ParallelGCThreads=1 \
  -XX:CICompilerCount=2 -XX:+AlwaysPreTouch -cp "$WORK/classes:$CP" \
  dev.cairn.dnsresponder.bench.BenchResponder "$RESP_PORT" "$N" "$WORKERS" > "$OUT/responder.log" 2>&1 &
PIDS+=($!)
wait_port "$KNOT_PORT"; wait_port "$RESP_PORT"
# JIT warm-up of the responder (not measured)
$C dnsperf -s 127.0.0.1 -p "$RESP_PORT" -d "$WORK/queries.txt" -l "$WARMUP" -q 100 -t 2 > "$OUT/warmup.txt" 2>&1 || true

for q in 100 10 1; do
  perf "knot_q$q" "$KNOT_PORT" "$q"
  perf "responder_q$q" "$RESP_PORT" "$q"
done

echo "== summary (N=$N, ${SECS}s each, server on CPU 0, dnsperf on CPU 1)"
for f in "$OUT"/knot_q*.txt "$OUT"/responder_q*.txt; do
  echo "$(basename "$f" .txt): $(grep -E "Queries per second|Average Latency|Queries lost|^p50" "$f" | tr -s ' ' | tr '\n' ' ')"
done
