package dev.homing.router.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class RequestIdsTest {

    @Test
    void idsAreDistinctVersion4UuidsOfTheIetfVariant() {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 10_000; i++) {
            String id = RequestIds.next();
            UUID u = UUID.fromString(id);
            assertThat(u.version()).isEqualTo(4);
            assertThat(u.variant()).isEqualTo(2);
            assertThat(id).hasSize(36).isEqualTo(u.toString());
            seen.add(id);
        }
        assertThat(seen).hasSize(10_000);
    }
}
