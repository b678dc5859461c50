#!/usr/bin/env bash
# Prober benchmarks on loopback (performance.md §2.2, S3/S4), the prober beside dnsperf in one run.
# Knot serves cloud.example.com with N names localtargets-appI (2 A records each, TEST-NET data)
# on 127.0.0.1 and 127.0.0.2 (the same zone: two "peers"), one UDP worker, pinned to core 0; every
# client is pinned to core 1. Per repeat, interleaved:
#   dnsperf -c 1 -q 100            the anchor
#   ProberBench client, 100 in flight: the prober's DNS path (DnsClient + DnsLookup + classifier)
#   ProberBench sweep: N hosts x 2 peers through ProbeScheduler (A+AAAA per host, 100 host probes in
#                      flight per peer, 1 s timeout, 2 attempts); the first sweep is cold and publishes
#   ProberBench blackhole: the healthy peer's sweep alone, then beside a black-holed peer
#                      (127.0.0.9: nothing listens, an unconnected UDP socket sees no ICMP error)
# Kills only the knotd PID it started.
#
# Needs: apt-get install -y knot dnsperf; a warm Maven repository (the script compiles the module
# offline; common-model comes from ~/.m2).
# Usage: bash health-prober/src/bench/run-prober-bench.sh [outdir]
#   env: N=10000 SECS=10 REPEAT=3 SWEEPS=6 INFLIGHT=100 PORT=15360 WORK=/tmp/prober-bench JAVA=java
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
WORK="${WORK:-/tmp/prober-bench}"
N="${N:-10000}"
SECS="${SECS:-10}"
REPEAT="${REPEAT:-3}"
SWEEPS="${SWEEPS:-6}"
PORT="${PORT:-15360}"
INFLIGHT="${INFLIGHT:-100}"   # host probes in flight per peer (prober.max-in-flight-per-peer)
JAVA="${JAVA:-java}"
OUT="${1:-$WORK/results}"
rm -rf "$WORK/db" "$WORK/run"
mkdir -p "$WORK"/{zones,db,run,classes} "$OUT"

if ss -uln 2>/dev/null | grep -qE "127\.0\.0\.[12]:$PORT\b"; then
  echo "port $PORT is in use on 127.0.0.1/2; set PORT" >&2
  exit 1
fi

# --- zone + query file (as ../../../../shared/bench/dns/run-dns-bench.sh) ---------------------
{
  echo '$ORIGIN cloud.example.com.'
  echo '$TTL 30'
  echo '@ IN SOA ns1.cloud.example.com. hostmaster.cloud.example.com. 1 3600 600 86400 30'
  echo '@ IN NS ns1'
  echo 'ns1 IN A 127.0.0.1'
  awk -v n="$N" 'BEGIN{for(i=0;i<n;i++){printf "localtargets-app%d IN A 192.0.2.%d\nlocaltargets-app%d IN A 198.51.100.%d\n", i, i%254+1, i, (i/254)%254+1}}'
} > "$WORK/zones/cloud.example.com.zone"
awk -v n="$N" 'BEGIN{for(i=0;i<n;i++) printf "localtargets-app%d.cloud.example.com A\n", i}' > "$WORK/queries.txt"

cat > "$WORK/knot.conf" <<CONF
server:
    rundir: "$WORK/run"
    listen: [ 127.0.0.1@$PORT, 127.0.0.2@$PORT ]
    udp-workers: ${KNOT_UDP_WORKERS:-1}
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
CONF

# --- build the module and the bench (offline) ------------------------------------------------
(cd "$ROOT" && ./mvnw -o -q -pl health-prober compile >/dev/null \
  && ./mvnw -o -q -pl health-prober dependency:build-classpath -Dmdep.includeScope=runtime \
       -Dmdep.outputFile="$WORK/classpath.txt" >/dev/null)
CP="$ROOT/health-prober/target/classes:$(cat "$WORK/classpath.txt")"
javac -d "$WORK/classes" -cp "$CP" $(find "$HERE/java" -name '*.java')
JCP="$WORK/classes:$CP"
JOPTS="-Xms512m -Xmx1g -XX:+UseParallelGC -XX:ParallelGCThreads=1 -Dlogback.configurationFile=$HERE/logback-bench.xml"

SRV_CPU="${SRV_CPU:-0}"; CLI_CPU="${CLI_CPU:-1}"
taskset -c "$SRV_CPU" knotd -c "$WORK/knot.conf" > "$OUT/knotd.log" 2>&1 &
KNOT=$!
cleanup() { kill "$KNOT" 2>/dev/null || true; wait "$KNOT" 2>/dev/null || true; }
trap cleanup EXIT
for i in $(seq 1 50); do
  ss -uln 2>/dev/null | grep -q "127.0.0.2:$PORT" && break
  sleep 0.2
done
sleep 1

C="taskset -c $CLI_CPU"
run() { local name="$1"; shift; echo "### $name: $*" > "$OUT/$name.txt"; timeout 300 "$@" >> "$OUT/$name.txt" 2>&1 || true; }
Q="$WORK/queries.txt"
B="dev.cairn.healthprober.schedule.ProberBench"

for r in $(seq 1 "$REPEAT"); do
  run "dnsperf_q100_$r"     $C dnsperf -s 127.0.0.1 -p "$PORT" -d "$Q" -l "$SECS" -c 1 -T 1 -q 100 -t 2
  run "prober_client_w100_$r" $C "$JAVA" $JOPTS -cp "$JCP" "$B" client "127.0.0.1:$PORT" "$Q" "$SECS" 100
  run "prober_sweep_$r"     $C "$JAVA" $JOPTS -cp "$JCP" "$B" sweep "127.0.0.1:$PORT" "127.0.0.2:$PORT" "$Q" "$SWEEPS" "$INFLIGHT"
  run "prober_blackhole_$r" $C "$JAVA" $JOPTS -cp "$JCP" "$B" blackhole "127.0.0.1:$PORT" "127.0.0.9:$PORT" "$Q" "$SWEEPS" "$INFLIGHT"
done

echo "== summary ($OUT)"
for r in $(seq 1 "$REPEAT"); do
  d="$(grep -E 'Queries per second' "$OUT/dnsperf_q100_$r.txt" | awk '{print $4}')"
  p="$(grep '^mode=client' "$OUT/prober_client_w100_$r.txt" | sed -E 's/.*qps=([0-9]+).*/\1/')"
  echo "repeat $r: dnsperf_qps=$d prober_qps=$p ratio=$(awk -v p="$p" -v d="$d" 'BEGIN{if(d>0) printf "%.2f", p/d}')"
  grep '^mode=client' "$OUT/prober_client_w100_$r.txt"
  grep '^mode=sweep' "$OUT/prober_sweep_$r.txt"
  grep '^mode=blackhole' "$OUT/prober_blackhole_$r.txt"
done
