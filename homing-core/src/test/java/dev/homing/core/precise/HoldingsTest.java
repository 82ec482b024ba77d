package dev.homing.core.precise;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class HoldingsTest {

    /** Keys whose table home is slot 0 at every table size up to 512 slots: one long cluster, distances past a byte's. */
    private static List<Long> collidingKeys(SplittableRandom r, int n) {
        List<Long> keys = new ArrayList<>();
        while (keys.size() < n) {
            long k = r.nextLong();
            long h = k * 0x9E3779B97F4A7C15L;
            if (((int) (h ^ (h >>> 32)) & 511) == 0) {
                keys.add(k);
            }
        }
        return keys;
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    void theKeyTableFindsEveryKeyThroughGrowthLongClustersAndRemovals(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        Holdings holdings = new Holdings();
        List<Long> keys = collidingKeys(r, 300);
        for (int i = 0; i < 300; i++) {
            keys.add(r.nextLong());
        }
        Collections.shuffle(keys, new Random(seed));
        Map<Long, Integer> ids = new HashMap<>();
        for (long key : keys) {
            int slot = holdings.slotOf(key);
            assertThat(slot).isNegative();
            int id = holdings.add(key, 5 << Holdings.POD_SHIFT);
            holdings.insert(slot, id);
            ids.put(key, id);
        }
        assertThat(holdings.keys()).isEqualTo(600);
        ids.forEach((key, id) -> assertThat(holdings.head(key)).isEqualTo(id));

        // flag some, remove half in random order, and every other key is still found, the removed ones not
        for (int i = 0; i < keys.size(); i += 7) {
            int slot = holdings.slotOf(keys.get(i));
            holdings.setSlotValue(slot, ids.get(keys.get(i)) | Holdings.SUMMARY);
        }
        List<Long> removed = new ArrayList<>(keys.subList(0, 300));
        Collections.shuffle(removed, new Random(seed + 1));
        for (long key : removed) {
            holdings.removeSlot(holdings.slotOf(key));
            holdings.free(ids.remove(key));
        }
        assertThat(holdings.keys()).isEqualTo(300);
        for (long key : removed) {
            assertThat(holdings.head(key)).isZero();
            assertThat(holdings.slotOf(key)).isNegative();
        }
        for (int i = 300; i < keys.size(); i++) {
            long key = keys.get(i);
            assertThat(holdings.head(key) & Holdings.ID_MASK).isEqualTo(ids.get(key));
            assertThat(holdings.head(key) & Holdings.SUMMARY).isEqualTo(i % 7 == 0 ? Holdings.SUMMARY : 0);
            assertThat(holdings.key(ids.get(key))).isEqualTo(key);
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {4, 5})
    void storeOrderIsLeastRecentFirstAndFreedIdsAreReusedButNotRetiredOnes(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        Holdings holdings = new Holdings();
        List<Integer> order = new ArrayList<>(); // the model: oldest first
        for (int op = 0; op < 20_000; op++) {
            int what = r.nextInt(3);
            if (what == 0 || order.isEmpty()) {
                int id = holdings.add(r.nextLong(), (r.nextInt(1000) << Holdings.POD_SHIFT) | 1);
                assertThat(order).doesNotContain(id);
                holdings.moveToNewest(id);
                order.add(id);
            } else if (what == 1) {
                Integer id = order.get(r.nextInt(order.size()));
                holdings.moveToNewest(id);
                order.remove(id);
                order.add(id);
            } else {
                Integer id = order.get(r.nextInt(order.size()));
                holdings.unlinkOrder(id);
                order.remove(id);
                if (r.nextBoolean()) {
                    holdings.free(id);
                } else {
                    holdings.retire(id);
                    assertThat(holdings.live(id)).isFalse();
                    int next = holdings.add(1, 1);
                    assertThat(next).as("a retired id is not handed out").isNotEqualTo(id);
                    holdings.free(next);
                    holdings.reuse(id);
                }
                assertThat(holdings.live(id)).isFalse();
            }
        }
        List<Integer> walked = new ArrayList<>();
        for (int id = holdings.oldest(); id != Holdings.NONE; id = holdings.newer(id)) {
            walked.add(id);
            assertThat(holdings.live(id)).isTrue();
        }
        assertThat(walked).isEqualTo(order);
    }
}
