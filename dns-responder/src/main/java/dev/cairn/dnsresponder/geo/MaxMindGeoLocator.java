package dev.cairn.dnsresponder.geo;

import com.maxmind.db.DatabaseRecord;
import com.maxmind.db.Reader;
import dev.cairn.dnsresponder.answer.GeoLocator;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link GeoLocator} over a MaxMind DB file ({@code .mmdb}). The file is read into memory once
 * and re-read when its modification time or size changes (polled), so queries never open it and a
 * file replaced in place (a ConfigMap update) takes effect without a restart. A missing or broken
 * file leaves the previous database in use (none at first): lookups are then empty and geoip
 * answers carry every target.
 */
public final class MaxMindGeoLocator implements GeoLocator, AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(MaxMindGeoLocator.class);

  private record Loaded(Reader reader, FileTime modified, long size) {}

  private final Path path;
  private final AtomicReference<Loaded> loaded = new AtomicReference<>();
  private volatile FileTime failedModified;
  private final ScheduledExecutorService poller;

  /**
   * Opens the database and starts polling it.
   *
   * @param path the {@code .mmdb} file
   * @param pollInterval how often the file's modification time is checked
   */
  public MaxMindGeoLocator(Path path, Duration pollInterval) {
    this.path = Objects.requireNonNull(path, "path");
    reload();
    this.poller =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "geoip-reload");
              t.setDaemon(true);
              return t;
            });
    long every = Math.max(1, pollInterval.toMillis());
    poller.scheduleWithFixedDelay(this::reload, every, every, TimeUnit.MILLISECONDS);
  }

  /** True when a database is loaded. */
  public boolean loaded() {
    return loaded.get() != null;
  }

  /** Re-reads the file when it changed since the last load. */
  void reload() {
    FileTime modified;
    long size;
    try {
      modified = Files.getLastModifiedTime(path);
      size = Files.size(path);
    } catch (NoSuchFileException e) {
      if (loaded.get() == null) {
        log.atWarn()
            .addKeyValue("file", path)
            .log("GeoIP database not found; geoip answers carry every target");
      }
      return;
    } catch (IOException e) {
      log.atWarn().addKeyValue("file", path).setCause(e).log("cannot stat the GeoIP database");
      return;
    }
    Loaded current = loaded.get();
    if (current != null && current.modified().equals(modified) && current.size() == size) {
      return;
    }
    if (modified.equals(failedModified)) {
      return; // already reported; wait for the next change
    }
    try {
      Reader reader = new Reader(path.toFile(), Reader.FileMode.MEMORY);
      loaded.set(new Loaded(reader, modified, size));
      // The previous reader is left to the garbage collector: in MEMORY mode it holds no file,
      // and a query may still be using it.
      log.atInfo()
          .addKeyValue("file", path)
          .addKeyValue("type", reader.getMetadata().getDatabaseType())
          .log("GeoIP database loaded");
    } catch (IOException | RuntimeException e) {
      failedModified = modified;
      log.atError()
          .addKeyValue("file", path)
          .setCause(e)
          .log("cannot read the GeoIP database; keeping the previous one");
    }
  }

  @Override
  public Optional<GeoMatch> locate(InetAddress address, String field) {
    Loaded current = loaded.get();
    if (current == null || address == null) {
      return Optional.empty();
    }
    DatabaseRecord<Map> record;
    try {
      record = current.reader().getRecord(address, Map.class);
    } catch (IOException | RuntimeException e) {
      log.atDebug().addKeyValue("address", address).setCause(e).log("GeoIP lookup failed");
      return Optional.empty();
    }
    if (record == null || record.getData() == null) {
      return Optional.empty();
    }
    Object value = record.getData();
    for (String part : field.split("\\.")) {
      if (!(value instanceof Map<?, ?> map)) {
        return Optional.empty();
      }
      value = map.get(part);
    }
    if (value == null || value instanceof Map<?, ?>) {
      return Optional.empty();
    }
    return Optional.of(new GeoMatch(value.toString(), record.getNetwork().getPrefixLength()));
  }

  @Override
  public void close() {
    poller.shutdownNow();
  }
}
