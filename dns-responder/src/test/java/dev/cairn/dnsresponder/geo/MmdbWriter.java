package dev.cairn.dnsresponder.geo;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A minimal MaxMind DB writer for tests (format 2.0: an IPv6 search tree with 24-bit records, IPv4
 * networks under {@code ::/96}, a data section of maps, strings and unsigned integers, and the
 * metadata after {@code \xAB\xCD\xEFMaxMind.com}). Enough to give the real reader a small database
 * tagging client and target networks.
 */
public final class MmdbWriter {

  private static final byte[] METADATA_MARKER = {
    (byte) 0xAB, (byte) 0xCD, (byte) 0xEF, 'M', 'a', 'x', 'M', 'i', 'n', 'd', '.', 'c', 'o', 'm'
  };

  /** A trie node; each side holds a child node, a data index, or nothing. */
  private static final class TrieNode {
    final TrieNode[] child = new TrieNode[2];
    final int[] data = {-1, -1};
    int number;
  }

  private final TrieNode root = new TrieNode();
  private final List<Map<String, Object>> data = new ArrayList<>();

  /** Adds a network ({@code 192.0.2.0/24} or {@code 2001:db8::/32}) with its record. */
  public MmdbWriter add(String cidr, Map<String, Object> record) {
    String[] parts = cidr.split("/");
    byte[] address;
    try {
      InetAddress parsed = InetAddress.getByName(parts[0]);
      address = parsed.getAddress();
      int prefix = Integer.parseInt(parts[1]);
      if (parsed instanceof Inet4Address) {
        byte[] mapped = new byte[16];
        System.arraycopy(address, 0, mapped, 12, 4);
        address = mapped;
        prefix += 96;
      }
      data.add(record);
      insert(address, prefix, data.size() - 1);
    } catch (IOException e) {
      throw new IllegalArgumentException(cidr, e);
    }
    return this;
  }

  private void insert(byte[] address, int prefix, int dataIndex) {
    TrieNode node = root;
    for (int depth = 0; depth < prefix - 1; depth++) {
      int bit = (address[depth / 8] >> (7 - depth % 8)) & 1;
      if (node.child[bit] == null) {
        node.child[bit] = new TrieNode();
      }
      node = node.child[bit];
    }
    int last = (address[(prefix - 1) / 8] >> (7 - (prefix - 1) % 8)) & 1;
    node.data[last] = dataIndex;
  }

  /** Writes the database. */
  public void write(Path path) throws IOException {
    Path temp = Files.createTempFile(path.toAbsolutePath().getParent(), "mmdb", ".tmp");
    Files.write(temp, build());
    Files.move(temp, path, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
  }

  /** The database bytes. */
  public byte[] build() {
    List<TrieNode> nodes = new ArrayList<>();
    number(root, nodes);
    int nodeCount = nodes.size();
    ByteArrayOutputStream dataSection = new ByteArrayOutputStream();
    int[] offsets = new int[data.size()];
    for (int i = 0; i < data.size(); i++) {
      offsets[i] = dataSection.size();
      encode(dataSection, data.get(i));
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (TrieNode node : nodes) {
      for (int side = 0; side < 2; side++) {
        long value;
        if (node.child[side] != null) {
          value = node.child[side].number;
        } else if (node.data[side] >= 0) {
          value = nodeCount + 16L + offsets[node.data[side]];
        } else {
          value = nodeCount; // no data
        }
        out.write((int) (value >> 16) & 0xFF);
        out.write((int) (value >> 8) & 0xFF);
        out.write((int) value & 0xFF);
      }
    }
    out.writeBytes(new byte[16]);
    out.writeBytes(dataSection.toByteArray());
    out.writeBytes(METADATA_MARKER);
    Map<String, Object> metadata = new LinkedHashMap<>();
    metadata.put("node_count", new Uint(nodeCount, 6));
    metadata.put("record_size", new Uint(24, 5));
    metadata.put("ip_version", new Uint(6, 5));
    metadata.put("database_type", "Cairn-Test");
    metadata.put("languages", List.of("en"));
    metadata.put("binary_format_major_version", new Uint(2, 5));
    metadata.put("binary_format_minor_version", new Uint(0, 5));
    metadata.put("build_epoch", new Uint(1_700_000_000L, 9));
    metadata.put("description", Map.of("en", "Cairn test database"));
    encode(out, metadata);
    return out.toByteArray();
  }

  private static void number(TrieNode node, List<TrieNode> nodes) {
    node.number = nodes.size();
    nodes.add(node);
    for (TrieNode child : node.child) {
      if (child != null) {
        number(child, nodes);
      }
    }
  }

  /** An unsigned integer of a given MaxMind type (5 uint16, 6 uint32, 9 uint64). */
  private record Uint(long value, int type) {}

  private static void encode(ByteArrayOutputStream out, Object value) {
    if (value instanceof String s) {
      byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
      control(out, 2, bytes.length);
      out.writeBytes(bytes);
    } else if (value instanceof Uint u) {
      byte[] bytes = java.math.BigInteger.valueOf(u.value()).toByteArray();
      int start = bytes[0] == 0 ? 1 : 0;
      control(out, u.type(), bytes.length - start);
      out.write(bytes, start, bytes.length - start);
    } else if (value instanceof Integer i) {
      encode(out, new Uint(i, 6));
    } else if (value instanceof Map<?, ?> map) {
      control(out, 7, map.size());
      for (Map.Entry<?, ?> e : map.entrySet()) {
        encode(out, (String) e.getKey());
        encode(out, e.getValue());
      }
    } else if (value instanceof List<?> list) {
      control(out, 11, list.size());
      for (Object o : list) {
        encode(out, o);
      }
    } else {
      throw new IllegalArgumentException("cannot encode " + value);
    }
  }

  private static void control(ByteArrayOutputStream out, int type, int size) {
    int typeBits = type <= 7 ? type : 0;
    int sizeBits;
    byte[] sizeBytes;
    if (size < 29) {
      sizeBits = size;
      sizeBytes = new byte[0];
    } else if (size < 285) {
      sizeBits = 29;
      sizeBytes = new byte[] {(byte) (size - 29)};
    } else if (size < 65821) {
      sizeBits = 30;
      int s = size - 285;
      sizeBytes = new byte[] {(byte) (s >> 8), (byte) s};
    } else {
      sizeBits = 31;
      int s = size - 65821;
      sizeBytes = new byte[] {(byte) (s >> 16), (byte) (s >> 8), (byte) s};
    }
    out.write((typeBits << 5) | sizeBits);
    if (type > 7) {
      out.write(type - 7);
    }
    out.writeBytes(sizeBytes);
  }
}
