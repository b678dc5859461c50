package dev.cairn.healthprober.schedule;

import dev.cairn.healthprober.dns.EncodedQuery;

/**
 * The two questions asked of every peer for a host, encoded once.
 *
 * @param host the host
 * @param a the A query for {@code localtargets-<host>}
 * @param aaaa the AAAA query for {@code localtargets-<host>}
 * @param bailiwick the zone a CNAME in the answer must stay in
 */
record HostQueries(String host, EncodedQuery a, EncodedQuery aaaa, String bailiwick) {}
