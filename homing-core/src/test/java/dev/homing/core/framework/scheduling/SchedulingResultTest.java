package dev.homing.core.framework.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.fixtures.Pools;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SchedulingResultTest {

    private final EndpointPool pool = Pools.of(2);

    private SchedulingResult decodeOnAPrefillOn(String decode, String prefill) {
        List<EndpointState> all = Pools.states(pool);
        Map<String, ProfileResult> results = new LinkedHashMap<>();
        results.put("decode", new ProfileResult("decode", List.of(), all, List.of(), new double[2],
                List.of(pool.snapshot().get(decode))));
        results.put("prefill", new ProfileResult("prefill", List.of(), all, List.of(), new double[2],
                List.of(pool.snapshot().get(prefill))));
        return new SchedulingResult(results, "decode", "prefill");
    }

    @Test
    void aPrefillEndpointOtherThanTheTargetIsNamed() {
        assertThat(decodeOnAPrefillOn("pod-0", "pod-1").prefillTarget().name()).isEqualTo("pod-1");
    }

    @Test
    void aPrefillProfileThatChoseTheTargetMeansNoRemotePrefill() {
        // one request to one endpoint: whoever credits load or records prefixes does it once
        SchedulingResult r = decodeOnAPrefillOn("pod-1", "pod-1");
        assertThat(r.target().name()).isEqualTo("pod-1");
        assertThat(r.prefillTarget()).isNull();
    }
}
