package dev.homing.core.collect;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LongKeyMapTest {

    /** Random puts, overwrites and removes, with keys crowded into few values so probe runs collide and wrap. */
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 42, 1234})
    void behavesLikeAHashMap(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        LongKeyMap<Long> map = new LongKeyMap<>();
        Map<Long, Long> reference = new HashMap<>();
        for (int op = 0; op < 50_000; op++) {
            long key = r.nextInt(2_000) * (r.nextBoolean() ? 1L : 0x100000000L) - 500;
            switch (r.nextInt(3)) {
                case 0, 1 -> {
                    long v = r.nextLong();
                    assertThat(map.put(key, v)).isEqualTo(reference.put(key, v));
                }
                default -> assertThat(map.remove(key)).isEqualTo(reference.remove(key));
            }
            if (op % 997 == 0) {
                for (Map.Entry<Long, Long> e : reference.entrySet()) {
                    assertThat(map.get(e.getKey())).isEqualTo(e.getValue());
                }
            }
            assertThat(map.size()).isEqualTo(reference.size());
        }
        for (long k = -600; k < 2_100; k++) {
            assertThat(map.get(k)).isEqualTo(reference.get(k));
        }
        map.clear();
        assertThat(map.isEmpty()).isTrue();
        assertThat(map.get(0)).isNull();
    }
}
