package dev.homing.router.record;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;

class TraceLineTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void isOneMooncakeObjectALineWithTheSessionOnlyWhenNamed() throws Exception {
        String with = new TraceLine(1500, 1200, 34, new int[] {0, 1, 2}, "7").toJson();
        assertThat(with).endsWith("}\n").doesNotContain("\n{").hasLineCount(1);
        JsonNode o = JSON.readTree(with);
        assertThat(iterable(o.fieldNames())).containsExactly("timestamp", "input_length", "output_length", "hash_ids",
                "session_id");
        assertThat(o.get("timestamp").isIntegralNumber()).isTrue();
        assertThat(o.get("timestamp").asLong()).isEqualTo(1500);
        assertThat(o.get("input_length").asLong()).isEqualTo(1200);
        assertThat(o.get("output_length").asLong()).isEqualTo(34);
        assertThat(o.get("hash_ids").toString()).isEqualTo("[0,1,2]");
        assertThat(o.get("session_id").isTextual()).isTrue();
        assertThat(o.get("session_id").asText()).isEqualTo("7");

        JsonNode without = JSON.readTree(new TraceLine(0, 1, 1, new int[] {0}, null).toJson());
        assertThat(iterable(without.fieldNames())).containsExactly("timestamp", "input_length", "output_length",
                "hash_ids");
    }

    private static List<String> iterable(java.util.Iterator<String> it) {
        List<String> out = new java.util.ArrayList<>();
        it.forEachRemaining(out::add);
        return out;
    }
}
