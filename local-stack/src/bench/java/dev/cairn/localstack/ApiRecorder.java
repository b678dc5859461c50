package dev.cairn.localstack;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;

/**
 * Listens at one cluster's mock API server and records, with {@link System#nanoTime()} stamps: when
 * each EndpointSlice replace or patch was accepted, and every DNSEndpoint write (create or update)
 * the record-writer sent, with the A targets of the Gslb host and of its {@code localtargets-}
 * name. The listener only queues what it saw (it runs on the server's thread); a recorder thread
 * decodes the bodies.
 */
final class ApiRecorder implements AutoCloseable {

  /** An accepted EndpointSlice update. */
  record SliceUpdate(int index, long receivedNanos, long answeredNanos) {}

  /** A DNSEndpoint write of Gslb {@code g-index} as it arrived at the API. */
  record Write(int index, long receivedNanos, Set<String> hostTargets, Set<String> localTargets) {}

  private record Raw(
      String method, String path, int status, String body, long receivedNanos, long answered) {}

  private static final Pattern SLICE =
      Pattern.compile("/apis/discovery\\.k8s\\.io/v1/namespaces/[^/]+/endpointslices/([^/?]+).*");
  private static final String DNS_ENDPOINTS = "/apis/externaldns.k8s.io/v1alpha1/namespaces/";
  private static final Pattern GSLB_STATUS =
      Pattern.compile("/apis/k8gb\\.io/v1beta1/namespaces/[^/]+/gslbs/[^/?]+/status.*");

  private final MockKubernetesApi api;
  private final MockKubernetesApi.RequestListener listener = this::answered;
  private final LinkedBlockingQueue<Raw> queue = new LinkedBlockingQueue<>();
  private final AtomicLong queued = new AtomicLong();
  private final AtomicLong decoded = new AtomicLong();
  private final Map<Integer, List<Write>> writes = new ConcurrentHashMap<>();
  private final Map<Integer, Write> latest = new ConcurrentHashMap<>();
  private final Map<Integer, SliceUpdate> sliceUpdates = new ConcurrentHashMap<>();
  private final AtomicLong dnsEndpointWrites = new AtomicLong();
  private final AtomicLong statusWrites = new AtomicLong();
  private final AtomicLong requests = new AtomicLong();
  private final Map<String, java.util.concurrent.atomic.LongAdder> byKind =
      new ConcurrentHashMap<>();
  private final AtomicLong dispatchNanos = new AtomicLong();
  private final AtomicLong lastWriteNanos = new AtomicLong(System.nanoTime());

  /** A request and how long the mock took to answer it. */
  record Slow(long nanos, String request) {}

  private final Slow[] slowest = new Slow[5];

  {
    java.util.Arrays.fill(slowest, new Slow(0, ""));
  }

  private final AtomicLong failures = new AtomicLong();
  private final java.util.concurrent.atomic.AtomicReference<String> firstFailure =
      new java.util.concurrent.atomic.AtomicReference<>();
  private final Thread decoder;
  private volatile boolean running = true;

  ApiRecorder(MockKubernetesApi api, String cluster) {
    this.api = api;
    this.decoder = new Thread(this::decode, "api-recorder-" + cluster);
    this.decoder.setDaemon(true);
    this.decoder.start();
    api.addRequestListener(listener);
  }

  private void answered(
      RecordedRequest request, byte[] bytes, int status, long received, long answered) {
    requests.incrementAndGet();
    byKind
        .computeIfAbsent(
            kind(request.getMethod(), request.getPath()),
            k -> new java.util.concurrent.atomic.LongAdder())
        .increment();
    long took = answered - received;
    dispatchNanos.addAndGet(took);
    if (took > slowest[slowest.length - 1].nanos()) {
      noteSlow(new Slow(took, request.getMethod() + " " + request.getPath()));
    }
    String method = request.getMethod();
    if ("GET".equals(method) || status >= 300) {
      return;
    }
    String path = request.getPath();
    String body = null;
    if (path.startsWith(DNS_ENDPOINTS) && path.contains("/dnsendpoints")) {
      if (!"POST".equals(method) && !"PUT".equals(method)) {
        return;
      }
      dnsEndpointWrites.incrementAndGet();
      lastWriteNanos.set(received);
      body = new String(bytes, StandardCharsets.UTF_8);
    } else if (GSLB_STATUS.matcher(path).matches()) {
      statusWrites.incrementAndGet();
      lastWriteNanos.set(received);
      return;
    } else if (!SLICE.matcher(path).matches()) {
      return;
    }
    queued.incrementAndGet();
    queue.add(new Raw(method, path, status, body, received, answered));
  }

  private void decode() {
    while (running || !queue.isEmpty()) {
      Raw raw;
      try {
        raw = queue.poll(100, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        return;
      }
      if (raw == null) {
        continue;
      }
      try {
        if (raw.body() != null) {
          decodeWrite(raw);
        } else {
          Matcher m = SLICE.matcher(raw.path());
          if (m.matches()) {
            int index = BenchTopology.indexOfSlice(m.group(1));
            if (index >= 0) {
              sliceUpdates.put(index, new SliceUpdate(index, raw.receivedNanos(), raw.answered()));
            }
          }
        }
      } catch (RuntimeException e) {
        failures.incrementAndGet();
        firstFailure.compareAndSet(null, raw.method() + " " + raw.path() + ": " + e);
      } finally {
        decoded.incrementAndGet();
      }
    }
  }

  private void decodeWrite(Raw raw) {
    GenericKubernetesResource r =
        Serialization.unmarshal(raw.body(), GenericKubernetesResource.class);
    if (r == null || r.getMetadata() == null) {
      return;
    }
    int index = BenchTopology.indexOfGslb(r.getMetadata().getName());
    if (index < 0) {
      return;
    }
    Write w =
        new Write(
            index,
            raw.receivedNanos(),
            Set.copyOf(DnsEndpoints.targets(r, BenchTopology.host(index), "A")),
            Set.copyOf(DnsEndpoints.targets(r, BenchTopology.localTargetsHost(index), "A")));
    writes.computeIfAbsent(index, k -> new ArrayList<>());
    synchronized (this) {
      writes.get(index).add(w);
    }
    latest.put(index, w);
  }

  /** Waits until everything queued so far is decoded. */
  void drain() {
    long target = queued.get();
    Awaitility.await()
        .atMost(Duration.ofMinutes(2))
        .pollInterval(Duration.ofMillis(10))
        .until(() -> decoded.get() >= target);
  }

  /** The last DNSEndpoint write of Gslb {@code g-i}, or {@code null}. */
  Write latest(int i) {
    return latest.get(i);
  }

  /** Every DNSEndpoint write of Gslb {@code g-i}, in arrival order. */
  synchronized List<Write> writes(int i) {
    return List.copyOf(writes.getOrDefault(i, List.of()));
  }

  /** The last accepted update of EndpointSlice {@code svc-i-1}, or {@code null}. */
  SliceUpdate sliceUpdate(int i) {
    return sliceUpdates.get(i);
  }

  private synchronized void noteSlow(Slow slow) {
    if (slow.nanos() <= slowest[slowest.length - 1].nanos()) {
      return;
    }
    slowest[slowest.length - 1] = slow;
    java.util.Arrays.sort(slowest, (x, y) -> Long.compare(y.nanos(), x.nanos()));
  }

  /** The slowest requests so far, as {@code 1234 ms GET /path}. */
  synchronized String slowest() {
    StringBuilder b = new StringBuilder();
    for (Slow s : slowest) {
      if (s.nanos() > 0) {
        String path = s.request().length() > 120 ? s.request().substring(0, 120) : s.request();
        b.append(
            String.format(java.util.Locale.ROOT, "%n      %6.0f ms %s", s.nanos() / 1e6, path));
      }
    }
    return b.toString();
  }

  /** Requests that could not be decoded, and the first one's error, or an empty string. */
  String decodeFailures() {
    return failures.get() == 0 ? "" : failures.get() + " undecodable, first: " + firstFailure.get();
  }

  long dnsEndpointWrites() {
    return dnsEndpointWrites.get();
  }

  long statusWrites() {
    return statusWrites.get();
  }

  long requests() {
    return requests.get();
  }

  /** The requests so far by {@link #kind}. */
  Map<String, Long> requestsByKind() {
    Map<String, Long> counts = new java.util.TreeMap<>();
    byKind.forEach((kind, count) -> counts.put(kind, count.sum()));
    return counts;
  }

  /**
   * A request's method and resource without namespaces and names, with its subresource and
   * whether it watches: {@code PUT dnsendpoints}, {@code PUT gslbs/status}, {@code GET gslbs
   * watch}.
   */
  static String kind(String method, String path) {
    int query = path.indexOf('?');
    String[] parts = (query < 0 ? path : path.substring(0, query)).split("/");
    // "", "api", "v1", resource ... or "", "apis", group, version, resource ...
    int at = parts.length > 1 && "api".equals(parts[1]) ? 3 : 4;
    if (parts.length > at + 1 && "namespaces".equals(parts[at])) {
      at += 2; // past "namespaces/<ns>"
    }
    StringBuilder kind = new StringBuilder(method).append(' ');
    if (parts.length > at) {
      kind.append(parts[at]);
      if (parts.length > at + 2) {
        kind.append('/').append(parts[at + 2]); // the subresource after the name
      }
    } else {
      kind.append(query < 0 ? path : path.substring(0, query));
    }
    if (query >= 0 && path.indexOf("watch=true", query) >= 0) {
      kind.append(" watch");
    }
    return kind.toString();
  }

  /** The mock's own time answering requests so far (its dispatcher serves one at a time). */
  long dispatchNanos() {
    return dispatchNanos.get();
  }

  long lastWriteNanos() {
    return lastWriteNanos.get();
  }

  @Override
  public void close() {
    api.removeRequestListener(listener);
    running = false;
    try {
      decoder.join(5000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
