package dev.homing.bench.workload;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Helpers shared by the workload tests. */
final class WorkloadAssertions {

    private WorkloadAssertions() {
    }

    static Map<String, String> params(String... keyValues) {
        Map<String, String> m = new HashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            m.put(keyValues[i], keyValues[i + 1]);
        }
        return m;
    }

    /** Equal in every field, token arrays by content (records compare arrays by identity). */
    static void assertSameWorkload(Workload a, Workload b) {
        assertThat(a.name()).isEqualTo(b.name());
        assertThat(a.stageQps()).isEqualTo(b.stageQps());
        assertThat(a.concurrency()).isEqualTo(b.concurrency());
        assertThat(a.parameters()).isEqualTo(b.parameters());
        assertThat(a.requests()).hasSameSizeAs(b.requests());
        for (int i = 0; i < a.requests().size(); i++) {
            WorkloadRequest x = a.requests().get(i);
            WorkloadRequest y = b.requests().get(i);
            assertThat(withoutPrompt(x)).as("request %d", i).isEqualTo(withoutPrompt(y));
            assertSamePrompt(x.prompt(), y.prompt());
        }
    }

    static void assertSamePrompt(Prompt x, Prompt y) {
        assertThat(x.text()).isEqualTo(y.text());
        assertThat(x.messages()).isEqualTo(y.messages());
        assertThat(x.tokens()).isEqualTo(y.tokens());
    }

    static boolean samePrompts(Workload a, Workload b) {
        if (a.requests().size() != b.requests().size()) {
            return false;
        }
        for (int i = 0; i < a.requests().size(); i++) {
            if (!Arrays.equals(a.requests().get(i).prompt().tokens(), b.requests().get(i).prompt().tokens())) {
                return false;
            }
        }
        return true;
    }

    private static List<Object> withoutPrompt(WorkloadRequest r) {
        return List.of(r.id(), r.arrivalNanos(), r.stage(), r.model(), r.maxTokens(), r.ignoreEos(), r.group(),
                r.conversation(), r.turn(), r.gapNanos());
    }
}
