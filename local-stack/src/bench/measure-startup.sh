#!/usr/bin/env bash
# Measures the two-cluster local stack's start-up cost: the time from the command to both clusters'
# dns-responders answering the sample failover host over DNS (dig), and the live heap after a
# full GC once the stack is idle. Needs the jar (./mvnw -B -q -DskipTests -pl local-stack -am
# package), dig (dnsutils) and jcmd (JDK).
#
#   bash local-stack/src/bench/measure-startup.sh [repeats] [outdir]
set -euo pipefail
cd "$(dirname "$0")/../../.."
REPEAT=${1:-3}
OUT=${2:-/tmp/cairn-startup}
JAR=$(ls local-stack/target/local-stack-*.jar | grep -v original | head -1)
HOST=app.cloud.example.com
PORT=${PORT:-25353}
mkdir -p "$OUT"
command -v dig >/dev/null || { echo "dig is missing (apt-get install dnsutils)"; exit 1; }

answers() { # port -> the A answer or empty
  dig @127.0.0.1 -p "$1" +norec +short +time=1 +tries=1 "$HOST" A 2>/dev/null | grep -E "^[0-9.]+$" | head -1 || true
}

echo "load before: $(uptime)" | tee "$OUT/summary.txt"
for i in $(seq 1 "$REPEAT"); do
  start=$(date +%s%N)
  java -jar "$JAR" --dns-port=$PORT --no-view >"$OUT/run-$i.log" 2>&1 &
  pid=$!
  eu=""; us=""
  while [[ -z "$eu" || -z "$us" ]]; do
    [[ -z "$eu" && -n "$(answers $PORT)" ]] && eu=$(( ($(date +%s%N) - start) / 1000000 ))
    [[ -z "$us" && -n "$(answers $((PORT + 1)))" ]] && us=$(( ($(date +%s%N) - start) / 1000000 ))
    kill -0 $pid 2>/dev/null || { echo "the stack exited; see $OUT/run-$i.log"; exit 1; }
    (( ($(date +%s%N) - start) / 1000000000 > 180 )) && { echo "no answer after 180 s"; kill $pid; exit 1; }
    sleep 0.2
  done
  sleep 20 # idle: let start-up garbage go
  jcmd $pid GC.run >/dev/null
  heap=$(jcmd $pid GC.heap_info | tr '\n' ' ' | grep -o 'used [0-9]*K' | head -1)
  rss=$(ps -o rss= -p $pid)
  echo "run $i: eu answers after ${eu} ms, us after ${us} ms; live heap after full GC: ${heap}; RSS $((rss / 1024)) MB; $(uptime | sed 's/.*load/load/')" | tee -a "$OUT/summary.txt"
  kill $pid; wait $pid 2>/dev/null || true
done
