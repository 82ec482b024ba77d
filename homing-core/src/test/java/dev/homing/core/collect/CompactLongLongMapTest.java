package dev.homing.core.collect;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CompactLongLongMapTest {

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {7, 8, 99})
    void behavesLikeAHashMapAcrossManyPages(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        CompactLongLongMap map = new CompactLongLongMap();
        Map<Long, Long> reference = new HashMap<>();
        for (int op = 0; op < 200_000; op++) {
            // 40k distinct keys: a table of 64k slots, eight pages; 0 and keys differing only in high bits included
            long key = r.nextInt(40_000) * (r.nextBoolean() ? 1L : 1L << 40);
            int what = r.nextInt(8);
            if (what < 5) {
                long v = r.nextLong();
                map.put(key, v);
                reference.put(key, v);
            } else if (what < 7) {
                assertThat(map.remove(key)).isEqualTo(reference.remove(key) != null);
            } else {
                Long expected = reference.get(key);
                assertThat(map.get(key, Long.MIN_VALUE)).isEqualTo(expected == null ? Long.MIN_VALUE : expected);
                assertThat(map.containsKey(key)).isEqualTo(expected != null);
            }
            assertThat(map.size()).isEqualTo(reference.size());
        }
        assertThat(map.capacity()).isGreaterThan(1 << 13);
        for (Map.Entry<Long, Long> e : reference.entrySet()) {
            assertThat(map.get(e.getKey(), Long.MIN_VALUE)).isEqualTo(e.getValue());
            assertThat(map.containsKey(e.getKey())).isTrue();
        }
        assertThat(map.get(-1, 42)).isEqualTo(42);
    }

    @Test
    void theZeroKeyAndAMissingMarkerThatIsAlsoAValue() {
        CompactLongLongMap map = new CompactLongLongMap();
        assertThat(map.containsKey(0)).isFalse();
        assertThat(map.get(0, 5)).isEqualTo(5);
        map.put(0, Long.MIN_VALUE);
        map.put(3, 0);
        assertThat(map.size()).isEqualTo(2);
        assertThat(map.get(0, 5)).isEqualTo(Long.MIN_VALUE);
        assertThat(map.containsKey(0)).isTrue();
        assertThat(map.get(3, 5)).isZero();
        assertThat(map.remove(0)).isTrue();
        assertThat(map.remove(0)).isFalse();
        assertThat(map.size()).isEqualTo(1);
    }

    @Test
    void clearForgetsEverythingAndGivesTheTableBack() {
        CompactLongLongMap map = new CompactLongLongMap();
        for (long k = 0; k < 100_000; k++) {
            map.put(k, -k);
        }
        assertThat(map.size()).isEqualTo(100_000);
        map.clear();
        assertThat(map.size()).isZero();
        assertThat(map.capacity()).isEqualTo(16);
        assertThat(map.containsKey(0)).isFalse();
        assertThat(map.containsKey(77)).isFalse();
        map.put(77, 1);
        assertThat(map.get(77, 0)).isEqualTo(1);
    }
}
