package dev.cairn.healthprober.dns;

import java.security.SecureRandom;

/**
 * 16-bit DNS query IDs from a {@link SecureRandom}, drawn in batches so that a high query rate does
 * not pay a {@code SecureRandom} call per query.
 */
final class QueryIds {

  private final SecureRandom random;
  private final byte[] pool = new byte[8192];
  private int position = pool.length;

  QueryIds(SecureRandom random) {
    this.random = random;
  }

  synchronized int next() {
    if (position + 2 > pool.length) {
      random.nextBytes(pool);
      position = 0;
    }
    int id = ((pool[position] & 0xff) << 8) | (pool[position + 1] & 0xff);
    position += 2;
    return id;
  }

  /** A random number in {@code [0, bound)}, for source ports. */
  synchronized int nextInt(int bound) {
    return random.nextInt(bound);
  }
}
