#!/usr/bin/env bash
# Initial-sync benchmark of the topology-watcher (see InitialSyncBench's Javadoc).
# Usage: topology-watcher/src/bench/run.sh [output dir]   (from the repository root)
# Sizes: ROUTES, SERVICES, ENDPOINTS_PER_SERVICE, NODES, HEARTBEATS; WATCHER_JVM for the watcher.
set -euo pipefail
cd "$(dirname "$0")/../.."   # the module directory
OUT="${1:-target/bench}"
mkdir -p "$OUT" target/bench-classes
../mvnw -o -q -f pom.xml test-compile \
  dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/bench/test.cp
../mvnw -o -q -f pom.xml dependency:build-classpath \
  -Dmdep.includeScope=runtime -Dmdep.outputFile=target/bench/runtime.cp
CP="target/classes:$(cat target/bench/test.cp)"
javac -nowarn -d target/bench-classes -cp "$CP" \
  $(find src/bench/java -name '*.java')
exec java -Xmx3g -cp "target/bench-classes:$CP" \
  -Droutes="${ROUTES:-10000}" -Dservices="${SERVICES:-10000}" \
  -DendpointsPerService="${ENDPOINTS_PER_SERVICE:-5}" -Dnodes="${NODES:-5000}" \
  -Dheartbeats="${HEARTBEATS:-5000}" -DwatcherJvm="${WATCHER_JVM:--Xmx1g -XX:+UseG1GC}" \
  -Dlogback.configurationFile=src/test/resources/logback-test.xml \
  dev.cairn.topologywatcher.bench.InitialSyncBench target/bench/runtime.cp "$OUT"
