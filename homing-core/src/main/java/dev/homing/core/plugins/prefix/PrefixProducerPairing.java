package dev.homing.core.plugins.prefix;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.homing.core.framework.plugin.Pairing;
import dev.homing.core.framework.requestcontrol.DataProducer;
import dev.homing.core.plugins.prefix.approx.ApproxPrefixCacheProducer;
import dev.homing.core.plugins.prefix.precise.PrecisePrefixCacheProducer;
import java.util.ArrayList;
import java.util.List;

/**
 * What llm-d pairs a prefix scorer with: the producer whose matches it reads, named by
 * {@code prefixMatchInfoProducerName}, else the producer type's own name, and created when the configuration does not
 * declare it. Older configurations wrote the index's parameters on the scorer: approximate ones on
 * {@code prefix-cache-scorer}, precise ones on {@code precise-prefix-cache-scorer} or on {@code prefix-cache-scorer}
 * with {@code mode: cache_tracking}. They move to the producer.
 */
final class PrefixProducerPairing implements Pairing {

    static final Pairing APPROXIMATE = new PrefixProducerPairing(false);
    static final Pairing PRECISE = new PrefixProducerPairing(true);

    private static final String LINK = "prefixMatchInfoProducerName";

    private static final Words WORDS = new Words("index parameters", "producer", "produces no prefix matches",
            "producers");

    private final boolean precise;

    private PrefixProducerPairing(boolean precise) {
        this.precise = precise;
    }

    @Override
    public Companion pair(ObjectNode parameters) {
        String linkKey = key(parameters, LINK);
        String link = parameters.hasNonNull(linkKey) ? parameters.get(linkKey).asText() : null;
        parameters.remove(linkKey);
        String modeKey = key(parameters, "mode");
        boolean cacheTracking = precise
                || (parameters.has(modeKey) && parameters.get(modeKey).asText().equals("cache_tracking"));
        parameters.remove(modeKey);
        ObjectNode legacy = JsonNodeFactory.instance.objectNode();
        List<String> keys = new ArrayList<>();
        parameters.fieldNames().forEachRemaining(keys::add);
        for (String key : keys) {
            // as the producer will read them: names match ignoring case, as Go's JSON decoding matches them
            if (cacheTracking || ApproxPrefixCacheProducer.PARAMETERS.stream().anyMatch(key::equalsIgnoreCase)) {
                legacy.set(key, parameters.remove(key));
            }
        }
        String type = cacheTracking ? PrecisePrefixCacheProducer.TYPE : ApproxPrefixCacheProducer.TYPE;
        return new Companion(link != null ? link : type, type, link != null, legacy, LINK, DataProducer.class, WORDS);
    }

    /** The key that spells {@code name}: itself, else one equal to it ignoring case (as Go's JSON decoding matches). */
    private static String key(ObjectNode parameters, String name) {
        if (parameters.has(name)) {
            return name;
        }
        List<String> keys = new ArrayList<>();
        parameters.fieldNames().forEachRemaining(keys::add);
        return keys.stream().filter(name::equalsIgnoreCase).max(String::compareTo).orElse(name);
    }
}
