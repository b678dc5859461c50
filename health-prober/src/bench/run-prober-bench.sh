#!/usr/bin/env bash
# Prober benchmarks on loopback (performance.md §2.2, S2/S3), the prober beside dnsperf in one run.
#
# Two peers, each its own Knot instance serving cloud.example.com with N names localtargets-appI
# (2 A records each, TEST-NET data): peer p1 on 127.0.0.1, peer p2 on 127.0.0.2, same port, one
# UDP worker each (the server side has one core), both pinned to core 0; every client is pinned to
# core 1. Socket buffers: Knot has no setting for them, so a deployer of a busy UDP server raises
# net.core.rmem_default. That sysctl is machine-wide and this machine is shared, so instead the
# script sets SO_RCVBUF=KNOT_RCVBUF on each of Knot's own UDP sockets (pidfd_getfd, same effect for
# those sockets only; KNOT_RCVBUF=0 keeps the kernel default, 208 KiB here, which drops queries
# when the two Knot instances take turns on their one core). Both values are in the output.
# A short dnsperf run warms both servers before anything is measured. Per repeat:
#   ProberBench anchor: the prober's DNS path (DnsClient + DnsLookup + classification) with 100
#                      queries in flight at p1, each next query sent from the completion of the
#                      previous one (as PeerProbe does), against its anchor dnsperf -c 1 -q 100 at
#                      p1, in PAIRS pairs of PAIR_SECS windows ordered ABBA (dnsperf first in odd
#                      pairs, the prober first in even ones), so that drift of the machine hits
#                      both alike. The JVM starts dnsperf itself and stays up across its windows
#                      (2 s warm-up before the first pair). Checked: median prober qps / median
#                      dnsperf qps, and the prober's p99 over all its windows
#   (ONLY="dnsperf client": the former sequential form, dnsperf SECS then the prober SECS)
#   ProberBench sweep: N hosts x 2 peers through ProbeScheduler (A+AAAA per host, INFLIGHT host
#                      probes in flight per peer, 1 s timeout, 2 attempts); WARMUP sweeps, then
#                      SWEEPS measured
#   ProberBench blackhole: p1's sweep alone and beside p2, in BH_SWEEPS interleaved pairs (alone,
#                      then beside half a pace later; a pair every BH_PACE_MS ms, so drift of the
#                      machine hits both sides of a pair alike): first with p2 healthy, then with
#                      p2 black-holed by kill -STOP of its Knot (its socket queues the queries,
#                      nothing answers, no ICMP). The warm-up includes one black-hole episode
#                      (reported as "cold")
# Per run: the load average before it, the receive-buffer drops of each Knot socket and the host's
# UdpRcvbufErrors counter, before and after.
# Kills only the knotd PIDs it started.
#
# Needs: apt-get install -y knot dnsperf; a warm Maven repository (the script compiles the module
# offline; common-model comes from ~/.m2).
# Usage: bash health-prober/src/bench/run-prober-bench.sh [outdir]
#   env: N=10000 REPEAT=2 PAIRS=6 PAIR_SECS=3 SWEEPS=8 WARMUP=4 INFLIGHT=100 BH_SWEEPS=24
#        BH_PACE_MS=500 PORT=15360 KNOT_UDP_WORKERS=1 KNOT_RCVBUF=4194304 WORK=/tmp/prober-bench
#        JAVA=java ONLY="anchor sweep blackhole" (the runs; also "dnsperf client", SECS=10)
#        JFR= (set: record every prober JVM with JFR, settings=profile, into the outdir)
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
WORK="${WORK:-/tmp/prober-bench}"
N="${N:-10000}"
SECS="${SECS:-10}"
PAIRS="${PAIRS:-6}"
PAIR_SECS="${PAIR_SECS:-3}"
REPEAT="${REPEAT:-2}"
SWEEPS="${SWEEPS:-8}"
WARMUP="${WARMUP:-4}"
BH_SWEEPS="${BH_SWEEPS:-24}"
BH_PACE_MS="${BH_PACE_MS:-500}"
PORT="${PORT:-15360}"
INFLIGHT="${INFLIGHT:-100}"   # host probes in flight per peer (prober.max-in-flight-per-peer)
JAVA="${JAVA:-java}"
OUT="${1:-$WORK/results}"
rm -rf "$WORK/p1" "$WORK/p2"
mkdir -p "$WORK"/{zones,classes} "$OUT"

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

# one Knot instance per peer, configured as a deployer of a one-core DNS server would
knot_conf() { # name address
  mkdir -p "$WORK/$1"/{db,run}
  cat > "$WORK/$1/knot.conf" <<CONF
server:
    rundir: "$WORK/$1/run"
    listen: $2@$PORT
    udp-workers: ${KNOT_UDP_WORKERS:-1}
    tcp-workers: 1
    background-workers: 1
log:
  - target: stderr
    any: warning
database:
    storage: "$WORK/$1/db"
template:
  - id: default
    storage: "$WORK/zones"
    file: "%s.zone"
    zonefile-sync: -1
    journal-content: none
zone:
  - domain: cloud.example.com
CONF
}
knot_conf p1 127.0.0.1
knot_conf p2 127.0.0.2

# --- build the module and the bench (offline) ------------------------------------------------
(cd "$ROOT" && ./mvnw -o -q -pl health-prober compile >/dev/null \
  && ./mvnw -o -q -pl health-prober dependency:build-classpath -DincludeScope=runtime \
       -Dmdep.outputFile="$WORK/classpath.txt" >/dev/null)
CP="$ROOT/health-prober/target/classes:$(cat "$WORK/classpath.txt")"
rm -rf "$WORK/classes" && mkdir -p "$WORK/classes"
javac -d "$WORK/classes" -cp "$CP" $(find "$HERE/java" -name '*.java')
JCP="$WORK/classes:$CP"
JOPTS="-Xms512m -Xmx1g -XX:+UseParallelGC -XX:ParallelGCThreads=1 -Dlogback.configurationFile=$HERE/logback-bench.xml"

SRV_CPU="${SRV_CPU:-0}"; CLI_CPU="${CLI_CPU:-1}"
taskset -c "$SRV_CPU" knotd -c "$WORK/p1/knot.conf" > "$OUT/knotd-p1.log" 2>&1 &
KNOT1=$!
taskset -c "$SRV_CPU" knotd -c "$WORK/p2/knot.conf" > "$OUT/knotd-p2.log" 2>&1 &
KNOT2=$!
cleanup() {
  for p in "$KNOT1" "$KNOT2"; do
    kill -CONT "$p" 2>/dev/null || true
    kill "$p" 2>/dev/null || true
    wait "$p" 2>/dev/null || true
  done
}
trap cleanup EXIT
for i in $(seq 1 50); do
  ss -uln 2>/dev/null | grep -q "127.0.0.1:$PORT" && ss -uln 2>/dev/null | grep -q "127.0.0.2:$PORT" && break
  sleep 0.2
done

# SO_RCVBUF on a running process's UDP sockets, as net.core.rmem_default would have set it
set_rcvbuf() { # pid bytes
  python3 - "$1" "$2" <<'PY'
import ctypes, os, socket, sys
pid, size = int(sys.argv[1]), int(sys.argv[2])
libc = ctypes.CDLL(None, use_errno=True)
SYS_PIDFD_GETFD = 438
pidfd = os.pidfd_open(pid)
for name in os.listdir(f"/proc/{pid}/fd"):
    try:
        if not os.readlink(f"/proc/{pid}/fd/{name}").startswith("socket:"):
            continue
    except OSError:
        continue
    fd = libc.syscall(SYS_PIDFD_GETFD, pidfd, int(name), 0)
    if fd < 0:
        sys.exit(f"pidfd_getfd {pid}/{name}: errno {ctypes.get_errno()}")
    s = socket.socket(fileno=fd)
    if s.type == socket.SOCK_DGRAM and s.family in (socket.AF_INET, socket.AF_INET6):
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, size)
    os.close(s.detach())
os.close(pidfd)
PY
}
KNOT_RCVBUF="${KNOT_RCVBUF:-4194304}"
if [ "$KNOT_RCVBUF" != 0 ]; then
  set_rcvbuf "$KNOT1" "$KNOT_RCVBUF"
  set_rcvbuf "$KNOT2" "$KNOT_RCVBUF"
fi

C="taskset -c $CLI_CPU"
Q="$WORK/queries.txt"
B="dev.cairn.healthprober.schedule.ProberBench"
# receive-buffer drops of each Knot socket (ss skmem d<N>), cumulative since start
drops() { ss -uamn "sport = :$PORT" 2>/dev/null | awk '/^UNCONN/{a=$4} /skmem/{match($0,/d[0-9]+/); printf "%s:%s ", a, substr($0,RSTART+1,RLENGTH-1)}'; }
udp_rcvbuf_errors() { nstat -az UdpRcvbufErrors 2>/dev/null | awk '/UdpRcvbufErrors/{print $2}'; }
run() {
  local name="$1"; shift
  local jfr=()
  if [ -n "${JFR:-}" ] && [ "$1" = "$JAVA" ]; then
    jfr=("-XX:StartFlightRecording=filename=$OUT/$name.jfr,settings=profile")
  fi
  {
    echo "### $name: $*"
    echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "drops-before: $(drops) host-UdpRcvbufErrors=$(udp_rcvbuf_errors)"
  } > "$OUT/$name.txt"
  if [ "${#jfr[@]}" -gt 0 ]; then
    local java="$1"; shift
    timeout 300 $C "$java" "${jfr[@]}" "$@" >> "$OUT/$name.txt" 2>&1 || true
  else
    timeout 300 $C "$@" >> "$OUT/$name.txt" 2>&1 || true
  fi
  echo "drops-after: $(drops) host-UdpRcvbufErrors=$(udp_rcvbuf_errors)" >> "$OUT/$name.txt"
}

{
  echo "date: $(date -u +%FT%TZ) host: $(nproc) cores, $(uname -r)"
  echo "knot: $(knotd -V | head -1); dnsperf: $(dnsperf -h 2>&1 | grep -m1 -i version || true)"
  echo "java: $("$JAVA" -version 2>&1 | head -1)"
  echo "net.core.rmem_default=$(cat /proc/sys/net/core/rmem_default) rmem_max=$(cat /proc/sys/net/core/rmem_max) KNOT_RCVBUF=$KNOT_RCVBUF"
  echo "knot sockets: $(ss -uamn "sport = :$PORT" | awk '/^UNCONN/{a=$4} /skmem/{match($0,/rb[0-9]+/); printf "%s %s ", a, substr($0,RSTART,RLENGTH)}')"
  echo "N=$N PAIRS=$PAIRS PAIR_SECS=$PAIR_SECS SECS=$SECS REPEAT=$REPEAT SWEEPS=$SWEEPS WARMUP=$WARMUP INFLIGHT=$INFLIGHT BH_SWEEPS=$BH_SWEEPS BH_PACE_MS=$BH_PACE_MS KNOT_UDP_WORKERS=${KNOT_UDP_WORKERS:-1}"
} > "$OUT/setup.txt"
cat "$OUT/setup.txt"

# warm both servers (not reported)
$C dnsperf -s 127.0.0.1 -p "$PORT" -d "$Q" -l 2 -c 1 -T 1 -q 100 -t 2 > /dev/null 2>&1 || true
$C dnsperf -s 127.0.0.2 -p "$PORT" -d "$Q" -l 2 -c 1 -T 1 -q 100 -t 2 > /dev/null 2>&1 || true

ONLY="${ONLY:-anchor sweep blackhole}"
want() { [[ " $ONLY " == *" $1 "* ]]; }
for r in $(seq 1 "$REPEAT"); do
  want anchor && run "prober_anchor_$r" "$JAVA" $JOPTS -cp "$JCP" "$B" anchor "127.0.0.1:$PORT" "$Q" "$PAIRS" "$PAIR_SECS" 100 \
    -- dnsperf -s 127.0.0.1 -p "$PORT" -d "$Q" -l "$PAIR_SECS" -c 1 -T 1 -q 100 -t 2
  want dnsperf && run "dnsperf_q100_$r" dnsperf -s 127.0.0.1 -p "$PORT" -d "$Q" -l "$SECS" -c 1 -T 1 -q 100 -t 2
  want client && run "prober_client_w100_$r" "$JAVA" $JOPTS -cp "$JCP" "$B" client "127.0.0.1:$PORT" "$Q" "$SECS" 100
  want sweep && run "prober_sweep_$r" "$JAVA" $JOPTS -cp "$JCP" "$B" sweep "127.0.0.1:$PORT" "127.0.0.2:$PORT" "$Q" "$SWEEPS" "$INFLIGHT" "$WARMUP"
  want blackhole && run "prober_blackhole_$r" "$JAVA" $JOPTS -cp "$JCP" "$B" blackhole "127.0.0.1:$PORT" "127.0.0.2:$PORT" "$Q" "$BH_SWEEPS" "$INFLIGHT" "$WARMUP" "$KNOT2" "$BH_PACE_MS"
  kill -CONT "$KNOT2" 2>/dev/null || true   # in case the bench died while p2 was stopped
done

echo "== summary ($OUT)"
for r in $(seq 1 "$REPEAT"); do
  if [ -f "$OUT/prober_anchor_$r.txt" ]; then
    echo "repeat $r anchor: $(grep '^load:' "$OUT/prober_anchor_$r.txt") | $(grep '^drops-after:' "$OUT/prober_anchor_$r.txt")"
    grep -hE '^mode=anchor (pair=[0-9]+ order=|summary)' "$OUT/prober_anchor_$r.txt" || true
  fi
  if [ -f "$OUT/dnsperf_q100_$r.txt" ] || [ -f "$OUT/prober_client_w100_$r.txt" ]; then
    d="$(grep -hE 'Queries per second' "$OUT/dnsperf_q100_$r.txt" 2>/dev/null | awk '{print $4}' || true)"
    p="$(grep -h '^mode=client' "$OUT/prober_client_w100_$r.txt" 2>/dev/null | sed -E 's/.*qps=([0-9]+).*/\1/' || true)"
    echo "repeat $r sequential: dnsperf_qps=$d prober_qps=$p ratio=$(awk -v p="$p" -v d="$d" 'BEGIN{if(d>0) printf "%.2f", p/d}') dnsperf_lost=$(grep -hE 'Queries lost' "$OUT/dnsperf_q100_$r.txt" 2>/dev/null | awk '{print $3}' || true)"
  fi
  for f in dnsperf_q100 prober_client_w100 prober_sweep prober_blackhole; do
    [ -f "$OUT/${f}_$r.txt" ] || continue
    echo "  $f: $(grep '^load:' "$OUT/${f}_$r.txt") | $(grep '^drops-after:' "$OUT/${f}_$r.txt")"
  done
  grep -h '^mode=client' "$OUT/prober_client_w100_$r.txt" 2>/dev/null || true
  grep -hE '^mode=sweep (summary|sweep=)' "$OUT/prober_sweep_$r.txt" 2>/dev/null || true
  grep -h '^mode=blackhole' "$OUT/prober_blackhole_$r.txt" 2>/dev/null || true
done
