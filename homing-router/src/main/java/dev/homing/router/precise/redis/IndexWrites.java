package dev.homing.router.precise.redis;

import java.util.ArrayList;
import java.util.List;

/** Changes to the shared precise index, in order, as the arguments of one {@code precise-write.lua} call. */
final class IndexWrites {

    private final List<String> args = new ArrayList<>();
    private final int header;

    IndexWrites(String namespace, long maxEntries, long engineTtlMillis) {
        args.add(namespace);
        args.add(Long.toString(maxEntries));
        args.add(Long.toString(engineTtlMillis));
        header = args.size();
    }

    /** A holding, confirmed when {@code untilMicros} is 0, else speculative until then (epoch µs). */
    void hold(String pod, String tier, long key, long untilMicros) {
        timed("H", pod, tier, key, untilMicros);
    }

    /** A speculative holding cut short: it lasts at most until then (epoch µs); a confirmed one is left alone. */
    void settle(String pod, String tier, long key, long untilMicros) {
        timed("S", pod, tier, key, untilMicros);
    }

    private void timed(String op, String pod, String tier, long key, long untilMicros) {
        args.add(op);
        args.add(pod);
        args.add(tier);
        args.add(Long.toString(key));
        args.add(Long.toString(untilMicros));
    }

    void mapEngine(String pod, long engineHash, long key) {
        args.add("E");
        args.add(pod);
        args.add(Long.toString(engineHash));
        args.add(Long.toString(key));
    }

    void removeByEngine(String pod, String tier, long engineHash) {
        args.add("R");
        args.add(pod);
        args.add(tier);
        args.add(Long.toString(engineHash));
    }

    void adapter(String name) {
        args.add("A");
        args.add(name);
    }

    boolean isEmpty() {
        return args.size() == header;
    }

    List<String> args() {
        return args;
    }
}
