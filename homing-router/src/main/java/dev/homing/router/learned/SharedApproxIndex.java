package dev.homing.router.learned;

import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.learned.ApproxIndex;
import dev.homing.core.learned.InMemoryApproxIndex;
import dev.homing.router.learned.StreamAppends.Fields;
import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * An approximate prefix index that a pool's replicas share: this replica's copy ({@link InMemoryApproxIndex}, with
 * its bounds and eviction) answers every match, and every record and forget made here is appended to the producer's
 * stream for the other replicas' copies. Consistency: eventual. A replica sees its own picks at once and another's as
 * soon as the append and its follower's read have run (one Redis round trip each, queued behind earlier ones); two
 * picks of one prompt closer together than that may both find it cold. Removing an endpoint is not shared: each
 * replica's own pool removes it, and from then on drops the other replicas' records for it (late, or replayed from
 * the stream's history), which would otherwise bring back entries for a pod gone here and take the room of live
 * ones. A record for a pod this replica does not know yet is dropped too: its own discovery adds the pod moments
 * later, and what the others learn of it from then on is applied.
 */
final class SharedApproxIndex implements ApproxIndex, Replicated {

    /** Another replica's record stamps this copy remembers, for their forgets; beyond, the oldest go. */
    static final int REMOTE_STAMPS = 8192;
    private static final String RECORD = "r";
    private static final String FORGET = "f";

    private final InMemoryApproxIndex local;
    private final long maxEntries;
    private final String key;
    private final long history;
    private final StreamAppends appends;
    private final Predicate<String> inPool;
    /** (replica, its stamp) of another replica's records, to this copy's stamp: the follower's thread only. */
    private final Map<String, Integer> remoteStamps = new LinkedHashMap<>(256, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Integer> eldest) {
            return size() > REMOTE_STAMPS;
        }
    };

    /**
     * @param history most changes the stream keeps: a replica that starts replays them to warm its copy
     * @param inPool  whether an endpoint is in this replica's pool now (another replica's records for others are
     *                dropped)
     */
    SharedApproxIndex(String key, long maxEntries, long history, StreamAppends appends, Predicate<String> inPool) {
        this.inPool = inPool;
        this.local = new InMemoryApproxIndex(maxEntries);
        this.maxEntries = maxEntries;
        this.key = key;
        this.history = history;
        this.appends = appends;
    }

    /** The most entries this copy holds. */
    long bound() {
        return maxEntries;
    }

    @Override
    public String streamKey() {
        return key;
    }

    @Override
    public int record(String endpoint, long[] hashes, long capacity) {
        int stamp = local.record(endpoint, hashes, capacity);
        if (hashes.length > 0) {
            Map<String, String> f = new HashMap<>(8);
            f.put(Fields.OP, RECORD);
            f.put(Fields.ENDPOINT, endpoint);
            f.put(Fields.CAPACITY, Long.toString(capacity));
            f.put(Fields.STAMP, Integer.toString(stamp));
            f.put(Fields.HASHES, encode(hashes, 0));
            appends.append(key, history, f);
        }
        return stamp;
    }

    @Override
    public int[] match(long[] hashes, List<EndpointState> candidates, int snapshotSize) {
        return local.match(hashes, candidates, snapshotSize);
    }

    @Override
    public void forget(String endpoint, long[] hashes, int from, int stamp) {
        local.forget(endpoint, hashes, from, stamp);
        if (from < hashes.length) {
            Map<String, String> f = new HashMap<>(8);
            f.put(Fields.OP, FORGET);
            f.put(Fields.ENDPOINT, endpoint);
            f.put(Fields.STAMP, Integer.toString(stamp));
            f.put(Fields.HASHES, encode(hashes, Math.max(0, from)));
            appends.append(key, history, f);
        }
    }

    @Override
    public void removeEndpoint(String endpoint) {
        local.removeEndpoint(endpoint);
    }

    @Override
    public long size() {
        return local.size();
    }

    @Override
    public long size(String endpoint) {
        return local.size(endpoint);
    }

    @Override
    public void apply(Map<String, String> fields) {
        String op = fields.get(Fields.OP);
        String endpoint = fields.get(Fields.ENDPOINT);
        String stamp = fields.get(Fields.REPLICA) + ":" + fields.get(Fields.STAMP);
        long[] hashes = decode(fields.get(Fields.HASHES));
        if (endpoint == null || hashes == null) {
            return; // not one of ours (a newer or older format): ignored
        }
        if (RECORD.equals(op)) {
            long capacity = parse(fields.get(Fields.CAPACITY));
            if (capacity > 0 && inPool.test(endpoint)) {
                remoteStamps.put(stamp, local.record(endpoint, hashes, capacity));
            }
        } else if (FORGET.equals(op)) {
            Integer mine = remoteStamps.get(stamp);
            if (mine != null) { // a record too old to remember is left to eviction: the guess stays
                local.forget(endpoint, hashes, 0, mine);
            }
        }
    }

    static String encode(long[] hashes, int from) {
        ByteBuffer b = ByteBuffer.allocate((hashes.length - from) * Long.BYTES);
        for (int i = from; i < hashes.length; i++) {
            b.putLong(hashes[i]);
        }
        return Base64.getEncoder().encodeToString(b.array());
    }

    /** Null when it is not a list of hashes. */
    static long[] decode(String text) {
        if (text == null) {
            return null;
        }
        byte[] bytes;
        try {
            bytes = Base64.getDecoder().decode(text);
        } catch (IllegalArgumentException e) {
            return null;
        }
        if (bytes.length % Long.BYTES != 0) {
            return null;
        }
        ByteBuffer b = ByteBuffer.wrap(bytes);
        long[] hashes = new long[bytes.length / Long.BYTES];
        for (int i = 0; i < hashes.length; i++) {
            hashes[i] = b.getLong();
        }
        return hashes;
    }

    private static long parse(String text) {
        try {
            return text == null ? -1 : Long.parseLong(text);
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
