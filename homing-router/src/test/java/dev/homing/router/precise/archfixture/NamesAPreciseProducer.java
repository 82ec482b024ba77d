package dev.homing.router.precise.archfixture;

import dev.homing.core.plugins.prefix.precise.PrecisePrefixCacheProducer;
import dev.homing.core.precise.KvEventFeed;

/** Breaks "the router reaches precise producers only through KvEventFeed": it looks for the producer's class. */
public final class NamesAPreciseProducer {

    boolean isPrecise(KvEventFeed feed) {
        return feed instanceof PrecisePrefixCacheProducer;
    }
}
