package dev.cairn.dnsresponder.store;

import dev.cairn.commonmodel.codec.CairnJson;
import dev.cairn.dnsresponder.zone.EndpointInput;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * The local copy of the selected endpoints, so a responder that restarts while the API server is
 * down can still answer. JSON, written to a temporary file and moved into place, so a reader sees
 * either the old or the new copy, never half of one.
 */
public final class SnapshotFile {

  /** The file format written; a file of another version is not read. */
  public static final int FORMAT_VERSION = 1;

  /**
   * The file's content.
   *
   * @param formatVersion {@link #FORMAT_VERSION}
   * @param clusterId the cluster the endpoints came from ({@code responder.cluster-id})
   * @param writtenAt when the copy was written
   * @param endpoints every endpoint of every selected object
   */
  public record Content(
      int formatVersion, String clusterId, Instant writtenAt, List<EndpointInput> endpoints) {
    public Content {
      Objects.requireNonNull(clusterId, "clusterId");
      Objects.requireNonNull(writtenAt, "writtenAt");
      endpoints = List.copyOf(endpoints == null ? List.of() : endpoints);
    }
  }

  private final Path path;
  private final JsonMapper mapper = CairnJson.newMapper();

  public SnapshotFile(Path path) {
    this.path = Objects.requireNonNull(path, "path");
  }

  /** The file's path. */
  public Path path() {
    return path;
  }

  /** Writes the content atomically, creating the directory when needed. */
  public void write(Content content) throws IOException {
    Path dir = path.toAbsolutePath().getParent();
    Files.createDirectories(dir);
    Path temp = Files.createTempFile(dir, path.getFileName().toString(), ".tmp");
    try {
      mapper.writeValue(temp.toFile(), content);
      try {
        Files.move(temp, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(temp, path, StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (JacksonException e) {
      throw new IOException("cannot write " + path + ": " + e.getOriginalMessage(), e);
    } finally {
      Files.deleteIfExists(temp);
    }
  }

  /**
   * Reads the file.
   *
   * @return the content, or empty when there is no file
   * @throws IOException when the file cannot be read or is not a snapshot of this format
   */
  public Optional<Content> read() throws IOException {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(path);
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
    Content content;
    try {
      content = mapper.readValue(bytes, Content.class);
    } catch (JacksonException | IllegalArgumentException | NullPointerException e) {
      throw new IOException(path + " is not a readable snapshot: " + e.getMessage(), e);
    }
    if (content.formatVersion() != FORMAT_VERSION) {
      throw new IOException(
          path + " has format version " + content.formatVersion() + ", not " + FORMAT_VERSION);
    }
    return Optional.of(content);
  }
}
