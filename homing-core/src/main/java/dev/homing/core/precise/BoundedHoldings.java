package dev.homing.core.precise;

import static dev.homing.core.precise.Holdings.ID_MASK;
import static dev.homing.core.precise.Holdings.NONE;
import static dev.homing.core.precise.Holdings.POD_SHIFT;
import static dev.homing.core.precise.Holdings.SPECULATIVE;
import static dev.homing.core.precise.Holdings.SUMMARY;
import static dev.homing.core.precise.Holdings.TIER_MASK;

/**
 * Adds and removes the holdings of an {@link InMemoryPreciseIndex}, keeping in step with them what describes them: the
 * key's summary, a speculative holding's expiry, the pod's count; and the bound, at most {@code maxEntries} holdings,
 * beyond which the least recently stored goes. Not thread-safe.
 */
final class BoundedHoldings {

    /** What {@link #remove(Pod, long, int)} found: it removed the holding; the pod holds the key on another tier. */
    static final int REMOVED = 1;
    static final int OTHER_TIER = 2;

    private final long maxEntries;
    private final Holdings holdings;
    private final KeySummaries summaries;
    private final SpeculativeHolds speculative;
    private final PodIds pods;
    private long size;

    BoundedHoldings(long maxEntries, Holdings holdings, KeySummaries summaries, SpeculativeHolds speculative,
            PodIds pods) {
        this.maxEntries = maxEntries;
        this.holdings = holdings;
        this.summaries = summaries;
        this.speculative = speculative;
        this.pods = pods;
    }

    /** (pod, block, tier) holdings. */
    long size() {
        return size;
    }

    /**
     * Adds or refreshes a holding: confirmed when {@code speculativeUntil} is 0, else speculative until then (a
     * confirmed one stays confirmed). Returns its id.
     */
    int hold(Pod pod, long key, int tier, long speculativeUntil) {
        int slot = holdings.slotOf(key);
        int first = slot < 0 ? 0 : holdings.slotValue(slot);
        int podTier = pod.id << POD_SHIFT | tier;
        int length = 0;
        for (int h = first & ID_MASK; h != NONE; h = holdings.nextOfKey(h)) {
            int pt = holdings.podTier(h);
            if ((pt & ~SPECULATIVE) == podTier) {
                if ((pt & SPECULATIVE) != 0) {
                    if (speculativeUntil == 0) {
                        holdings.setPodTier(h, podTier);
                        speculative.end(h);
                        if ((first & SUMMARY) != 0) {
                            long[] s = summaries.withRoom(key, pod.id);
                            summaries.exclude(s, pt);
                            summaries.include(s, podTier);
                        }
                    } else {
                        speculative.extend(h, speculativeUntil);
                    }
                }
                holdings.moveToNewest(h);
                return h;
            }
            length++;
        }
        if (speculativeUntil != 0) {
            podTier |= SPECULATIVE;
        }
        int h = holdings.add(key, podTier);
        if (speculativeUntil != 0) {
            speculative.start(h, speculativeUntil);
        }
        if (slot < 0) {
            holdings.insert(slot, h);
        } else {
            holdings.setNextOfKey(h, first & ID_MASK);
            int flag = first & SUMMARY;
            if (flag != 0) {
                summaries.include(summaries.withRoom(key, pod.id), podTier);
            } else if (length + 1 >= summaries.summaryAt()) {
                summaries.summarize(key, h);
                flag = SUMMARY;
            }
            holdings.setSlotValue(slot, h | flag);
        }
        holdings.moveToNewest(h);
        pod.count++;
        size++;
        while (size > maxEntries) {
            unlink(holdings.oldest());
        }
        return h;
    }

    /** Holds {@code keys} speculatively on the pod's {@code tier} until then, and queues their expiries. */
    void holdSpeculatively(Pod pod, long[] keys, int tier, long untilNanos) {
        for (int i = keys.length - 1; i >= 0; i--) {
            int h = hold(pod, keys[i], tier, untilNanos);
            if ((holdings.podTier(h) & SPECULATIVE) != 0) {
                speculative.queue(h, untilNanos);
            }
        }
    }

    /**
     * Cuts the pod's speculative holdings of {@code keys} on {@code tier} short: each lasts at most until
     * {@code untilNanos} (confirmed holdings, and keys it does not hold, are left as they are).
     */
    void settleSpeculatively(Pod pod, long[] keys, int tier, long untilNanos) {
        int podTier = pod.id << POD_SHIFT | tier;
        for (long key : keys) {
            int slot = holdings.slotOf(key);
            if (slot < 0) {
                continue;
            }
            for (int h = holdings.slotValue(slot) & ID_MASK; h != NONE; h = holdings.nextOfKey(h)) {
                int pt = holdings.podTier(h);
                if ((pt & ~SPECULATIVE) == podTier) {
                    if ((pt & SPECULATIVE) != 0) {
                        speculative.shorten(h, untilNanos);
                        speculative.queue(h, untilNanos);
                    }
                    break;
                }
            }
        }
    }

    /** Removes the speculative holdings that have expired by {@code nowNanos}. */
    void expire(long nowNanos) {
        for (int h = speculative.nextExpired(nowNanos); h != NONE; h = speculative.nextExpired(nowNanos)) {
            unlink(h);
        }
    }

    /** Removes every holding of the pod. */
    void removeAll(Pod pod) {
        // Rare (a reset, a restart): walk every holding rather than pay for a per-pod list on each one.
        for (int h = holdings.oldest(); h != NONE && pod.count > 0; ) {
            int next = holdings.newer(h);
            if (holdings.podTier(h) >>> POD_SHIFT == pod.id) {
                unlink(h);
            }
            h = next;
        }
    }

    /**
     * Removes the pod's holding of {@code key} on {@code tier}, if it has one: a {@code BlockRemoved} names a tier,
     * and the pod's engine-hash mapping goes only with its last tier, hence {@link #OTHER_TIER}. One walk of the key's
     * chain finds both.
     *
     * @return {@link #REMOVED} and {@link #OTHER_TIER}, as they apply
     */
    int remove(Pod pod, long key, int tier) {
        int slot = holdings.slotOf(key);
        int holding = NONE;
        int found = 0;
        for (int h = slot < 0 ? NONE : holdings.slotValue(slot) & ID_MASK; h != NONE; h = holdings.nextOfKey(h)) {
            int pt = holdings.podTier(h);
            if (pt >>> POD_SHIFT == pod.id) {
                if ((pt & TIER_MASK) == tier) {
                    holding = h;
                } else {
                    found = OTHER_TIER;
                }
            }
        }
        if (holding != NONE) {
            unlink(holding, slot);
            found |= REMOVED;
        }
        return found;
    }

    /** Removes holding {@code h}. */
    private void unlink(int h) {
        unlink(h, holdings.slotOf(holdings.key(h)));
    }

    /** Removes holding {@code h}, whose key is at table slot {@code slot}. */
    private void unlink(int h, int slot) {
        int pt = holdings.podTier(h);
        long key = holdings.key(h);
        int first = holdings.slotValue(slot);
        int head = first & ID_MASK;
        if (head == h) {
            head = holdings.nextOfKey(h);
        } else {
            int p = head;
            while (holdings.nextOfKey(p) != h) {
                p = holdings.nextOfKey(p);
            }
            holdings.setNextOfKey(p, holdings.nextOfKey(h));
        }
        int flag = first & SUMMARY;
        if (flag != 0) {
            long[] s = summaries.get(key);
            summaries.exclude(s, pt);
            if (KeySummaries.count(s) <= summaries.summaryAt() / 2) { // not as soon as it is below: a key would flap
                summaries.remove(key);
                flag = 0;
            }
        }
        if (head == NONE) {
            holdings.removeSlot(slot);
        } else {
            holdings.setSlotValue(slot, head | flag);
        }
        if ((pt & SPECULATIVE) != 0) {
            speculative.end(h);
        }
        holdings.unlinkOrder(h);
        if (speculative.named(h)) {
            holdings.retire(h); // reused only once its queued expiries are gone: they mean this holding
        } else {
            holdings.free(h);
        }
        pods.byId(pt >>> POD_SHIFT).count--;
        size--;
    }
}
