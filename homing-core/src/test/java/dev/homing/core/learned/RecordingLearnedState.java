package dev.homing.core.learned;

import dev.homing.core.endpoint.EndpointState;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Learned state in memory that writes down what is asked of it, in order: what was made (kind, name, bound), and each
 * lookup begun, each finished, each write. Stands for a host's state (the router's Redis) in tests of the seam.
 */
public final class RecordingLearnedState implements LearnedState {

    private final List<String> made = Collections.synchronizedList(new ArrayList<>());
    private final List<String> calls = Collections.synchronizedList(new ArrayList<>());

    public List<String> made() {
        return List.copyOf(made);
    }

    public List<String> calls() {
        return List.copyOf(calls);
    }

    public void clearCalls() {
        calls.clear();
    }

    @Override
    public ApproxIndex approxIndex(String producer, long maxEntries) {
        made.add("approx " + producer + " " + maxEntries);
        InMemoryApproxIndex index = new InMemoryApproxIndex(maxEntries);
        return new ApproxIndex() {
            @Override
            public int record(String endpoint, long[] hashes, long capacity) {
                calls.add("approx record " + endpoint);
                return index.record(endpoint, hashes, capacity);
            }

            @Override
            public int[] match(long[] hashes, List<EndpointState> candidates, int snapshotSize) {
                calls.add("approx match");
                return index.match(hashes, candidates, snapshotSize);
            }

            @Override
            public Lookup lookup(long[] hashes) {
                calls.add("approx lookup");
                return (candidates, size) -> {
                    calls.add("approx lookup finished");
                    return index.match(hashes, candidates, size);
                };
            }

            @Override
            public void forget(String endpoint, long[] hashes, int from, int stamp) {
                calls.add("approx forget " + endpoint);
                index.forget(endpoint, hashes, from, stamp);
            }

            @Override
            public void removeEndpoint(String endpoint) {
                calls.add("approx remove " + endpoint);
                index.removeEndpoint(endpoint);
            }

            @Override
            public long size() {
                return index.size();
            }

            @Override
            public long size(String endpoint) {
                return index.size(endpoint);
            }
        };
    }

    @Override
    public NewcomerLru newcomerLru(String scorer, int size) {
        made.add("newcomers " + scorer + " " + size);
        InMemoryNewcomerLru lru = new InMemoryNewcomerLru(size);
        return new NewcomerLru() {
            @Override
            public void received(String endpoint) {
                calls.add("newcomer " + endpoint);
                lru.received(endpoint);
            }

            @Override
            public List<String> leastRecentFirst() {
                calls.add("newcomers read");
                return lru.leastRecentFirst();
            }

            @Override
            public Lookup lookup() {
                calls.add("newcomers lookup");
                return () -> {
                    calls.add("newcomers lookup finished");
                    return lru.leastRecentFirst();
                };
            }
        };
    }
}
