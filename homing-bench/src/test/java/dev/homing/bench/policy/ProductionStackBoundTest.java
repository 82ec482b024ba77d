package dev.homing.bench.policy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.bench.virtual.Scenario;
import dev.homing.bench.virtual.Scenarios;
import dev.homing.bench.workload.Workload;
import dev.homing.bench.workload.WorkloadRequest;
import dev.homing.bench.workload.Workloads;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The lab's bound on production-stack's trie (upstream has none) must not change a result of the suite: every
 * suite scenario's prompts (seed 1), all inserted, stay under it, so nothing is evicted there. (Measured once: at
 * most 174 k nodes on the fixed-length scenarios, suite-zipf; llm-d-73 96 k.) suite-long-context's 45 minutes do not
 * fit a test's heap: its first 10 minutes must stay under an eighth of the bound, the whole run holding about seven
 * times their requests.
 */
class ProductionStackBoundTest {

    @Test
    void noScenarioOfTheSuiteReachesTheTriesBound() {
        for (Scenario s : Scenarios.suite()) {
            boolean longContext = s.name().equals("suite-long-context");
            java.util.Map<String, String> p = new java.util.HashMap<>(s.workloadParameters());
            if (longContext) {
                p.put("qps", "3x600");
            }
            Workload w = Workloads.create(s.workload(), p, 1);
            ProductionStackPrefixAware policy = new ProductionStackPrefixAware(s.pods(), new SplittableRandom(1));
            for (WorkloadRequest r : w.requests()) {
                policy.place(new PolicyRequest(r.id(), null, r.prompt(), new int[0], r.maxTokens()));
            }
            assertThat(policy.trie().evicted()).as(s.name()).isZero();
            assertThat(policy.trie().nodes()).as(s.name())
                    .isLessThan(ProductionStackPrefixAware.MAX_NODES / (longContext ? 8 : 1));
        }
    }
}
