package dev.homing.protocol.metrics;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The samples of one scrape, grouped by sample name, with the declared metric types. */
public final class MetricsText {

    private final Map<String, List<Sample>> byName;
    private final Map<String, String> types;

    MetricsText(List<Sample> samples, Map<String, String> types) {
        Map<String, List<Sample>> grouped = new HashMap<>();
        for (Sample s : samples) {
            grouped.computeIfAbsent(s.name(), k -> new ArrayList<>(1)).add(s);
        }
        grouped.replaceAll((k, v) -> Collections.unmodifiableList(v));
        this.byName = Collections.unmodifiableMap(grouped);
        this.types = Map.copyOf(types);
    }

    /** Every sample with exactly this name, in the order they appeared. */
    public List<Sample> samples(String name) {
        return byName.getOrDefault(name, List.of());
    }

    /** The declared type of a metric family ({@code counter}, {@code gauge}, ...), or null. */
    public String type(String family) {
        return types.get(family);
    }

    public boolean has(String name) {
        return byName.containsKey(name);
    }

    public int size() {
        return byName.values().stream().mapToInt(List::size).sum();
    }

    /**
     * The value of the sample to trust when a server exposes several series of one metric: the one with the newest
     * timestamp (llm-d's rule), else the last one. NaN when there is none.
     */
    public double latest(String name) {
        Sample s = latestSample(name);
        return s == null ? Double.NaN : s.value();
    }

    public Sample latestSample(String name) {
        List<Sample> list = samples(name);
        Sample best = null;
        for (Sample s : list) {
            if (best == null || s.timestampMs() >= best.timestampMs()) {
                best = s;
            }
        }
        return best;
    }

    /** Sum over every series of a metric; 0 when absent. */
    public double sum(String name) {
        double total = 0;
        for (Sample s : samples(name)) {
            total += s.value();
        }
        return total;
    }
}
