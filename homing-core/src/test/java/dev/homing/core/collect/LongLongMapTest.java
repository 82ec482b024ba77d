package dev.homing.core.collect;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LongLongMapTest {

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {7, 8, 99})
    void behavesLikeAHashMap(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        LongLongMap map = new LongLongMap();
        Map<Long, Long> reference = new HashMap<>();
        for (int op = 0; op < 50_000; op++) {
            long key = r.nextInt(3_000) * (r.nextBoolean() ? 1L : 1L << 40);
            if (r.nextInt(3) < 2) {
                long v = r.nextLong();
                map.put(key, v);
                reference.put(key, v);
            } else {
                Long expected = reference.remove(key);
                assertThat(map.remove(key, Long.MIN_VALUE)).isEqualTo(expected == null ? Long.MIN_VALUE : expected);
            }
            assertThat(map.size()).isEqualTo(reference.size());
        }
        for (Map.Entry<Long, Long> e : reference.entrySet()) {
            assertThat(map.get(e.getKey(), Long.MIN_VALUE)).isEqualTo(e.getValue());
            assertThat(map.containsKey(e.getKey())).isTrue();
        }
        assertThat(map.get(-1, 42)).isEqualTo(42);
    }
}
