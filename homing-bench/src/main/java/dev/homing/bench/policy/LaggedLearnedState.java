package dev.homing.bench.policy;

import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.learned.ApproxIndex;
import dev.homing.core.learned.InMemoryApproxIndex;
import dev.homing.core.learned.InMemoryNewcomerLru;
import dev.homing.core.learned.LearnedState;
import dev.homing.core.learned.NewcomerLru;
import dev.homing.core.time.Ticker;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The learned state of router replicas shared as the router shares it through Redis ({@code router.learned}), in
 * virtual time: each replica has its own copy of every plugin's state, takes its own changes at once and the other
 * replicas' {@code lag} later (the append to Redis and the follower's read). With a lag of zero the replicas apply
 * each other's changes before their next decision; with {@link #unshared} each keeps its own state, as replicas
 * without Redis do.
 */
final class LaggedLearnedState {

    /** Another replica's record stamps a copy remembers for their forgets, as the router's copies do. */
    private static final int REMOTE_STAMPS = 8192;

    private final Ticker ticker;
    private final long lagNanos;
    private final int replicas;
    private final Map<String, List<Copy>> groups = new HashMap<>();

    /** @param lagNanos how long after a change the other replicas apply it, or -1 for never (unshared) */
    LaggedLearnedState(Ticker ticker, int replicas, long lagNanos) {
        this.ticker = ticker;
        this.replicas = replicas;
        this.lagNanos = lagNanos;
    }

    static LaggedLearnedState unshared(Ticker ticker, int replicas) {
        return new LaggedLearnedState(ticker, replicas, -1);
    }

    /** Replica {@code i}'s view: the plugins it makes find their copy of each state, by name. */
    LearnedState replica(int i) {
        return new LearnedState() {
            @Override
            public ApproxIndex approxIndex(String producer, long maxEntries) {
                return (ApproxIndex) copy("approx:" + producer, i, k -> new IndexCopy(k, maxEntries));
            }

            @Override
            public NewcomerLru newcomerLru(String scorer, int size) {
                return (NewcomerLru) copy("newcomers:" + scorer, i, k -> new OrderCopy(k, size));
            }
        };
    }

    private Copy copy(String name, int replica, java.util.function.IntFunction<Copy> make) {
        List<Copy> group = groups.computeIfAbsent(name, n -> {
            List<Copy> g = new ArrayList<>();
            for (int k = 0; k < replicas; k++) {
                g.add(make.apply(k));
            }
            for (Copy c : g) {
                c.group = g;
            }
            return g;
        });
        return group.get(replica);
    }

    /** One replica's copy of one plugin's state, and the others' changes on their way to it. */
    private abstract class Copy {
        final int replica;
        private final ArrayDeque<Pending> pending = new ArrayDeque<>();
        List<Copy> group;

        Copy(int replica) {
            this.replica = replica;
        }

        /** Applies what the other replicas changed up to {@code lag} ago. */
        final void catchUp() {
            long now = ticker.nanos();
            while (!pending.isEmpty() && pending.peekFirst().due() <= now) {
                pending.pollFirst().change().run();
            }
        }

        /** Sends a change made here to every other replica's copy. */
        final void share(java.util.function.Consumer<Copy> change) {
            if (lagNanos < 0) {
                return;
            }
            long due = ticker.nanos() + lagNanos;
            for (Copy other : group) {
                if (other != this) {
                    other.pending.addLast(new Pending(due, () -> change.accept(other)));
                }
            }
        }
    }

    private record Pending(long due, Runnable change) {
    }

    private final class IndexCopy extends Copy implements ApproxIndex {
        private final InMemoryApproxIndex local;
        private final Map<Long, Integer> remoteStamps = new LinkedHashMap<>(256, 0.75f, false) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Long, Integer> eldest) {
                return size() > REMOTE_STAMPS;
            }
        };

        IndexCopy(int replica, long maxEntries) {
            super(replica);
            this.local = new InMemoryApproxIndex(maxEntries);
        }

        private static long key(int replica, int stamp) {
            return (long) replica << 32 | (stamp & 0xFFFF_FFFFL);
        }

        @Override
        public int record(String endpoint, long[] hashes, long capacity) {
            catchUp();
            int stamp = local.record(endpoint, hashes, capacity);
            share(c -> {
                IndexCopy o = (IndexCopy) c;
                o.remoteStamps.put(key(replica, stamp), o.local.record(endpoint, hashes, capacity));
            });
            return stamp;
        }

        @Override
        public int[] match(long[] hashes, List<EndpointState> candidates, int snapshotSize) {
            catchUp();
            return local.match(hashes, candidates, snapshotSize);
        }

        @Override
        public void forget(String endpoint, long[] hashes, int from, int stamp) {
            catchUp();
            local.forget(endpoint, hashes, from, stamp);
            share(c -> {
                IndexCopy o = (IndexCopy) c;
                Integer mine = o.remoteStamps.get(key(replica, stamp));
                if (mine != null) {
                    o.local.forget(endpoint, hashes, from, mine);
                }
            });
        }

        @Override
        public void removeEndpoint(String endpoint) {
            local.removeEndpoint(endpoint);
        }

        @Override
        public long size() {
            catchUp();
            return local.size();
        }

        @Override
        public long size(String endpoint) {
            catchUp();
            return local.size(endpoint);
        }
    }

    private final class OrderCopy extends Copy implements NewcomerLru {
        private final InMemoryNewcomerLru local;

        OrderCopy(int replica, int size) {
            super(replica);
            this.local = new InMemoryNewcomerLru(size);
        }

        @Override
        public void received(String endpoint) {
            catchUp();
            local.received(endpoint);
            share(c -> ((OrderCopy) c).local.received(endpoint));
        }

        @Override
        public List<String> leastRecentFirst() {
            catchUp();
            return local.leastRecentFirst();
        }
    }
}
