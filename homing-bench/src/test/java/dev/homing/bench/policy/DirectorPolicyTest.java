package dev.homing.bench.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.homing.bench.workload.Prompt;
import dev.homing.protocol.kvevents.BlockStored;
import dev.homing.protocol.kvevents.EventBlockHash;
import dev.homing.protocol.openai.ApiKind;
import dev.homing.protocol.openai.RequestParser;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DirectorPolicyTest {

    private static final List<String> PODS = List.of("pod-0", "pod-1", "pod-2");

    private static PolicyContext context() {
        return new PolicyContext(PODS, () -> 0L, 1, 16);
    }

    private static PolicyRequest request(String id, int[] tokens) throws Exception {
        StringBuilder text = new StringBuilder();
        for (int t : tokens) {
            text.append(" w").append(t);
        }
        byte[] body = ("{\"model\":\"m\",\"prompt\":\"" + text + "\",\"max_tokens\":8}").getBytes(StandardCharsets.UTF_8);
        return new PolicyRequest(id, RequestParser.parse(ApiKind.COMPLETIONS, body), Prompt.text(text.toString(),
                tokens), tokens, 8);
    }

    private static int[] tokens(int from, int n) {
        int[] t = new int[n];
        for (int i = 0; i < n; i++) {
            t[i] = from + i;
        }
        return t;
    }

    @Test
    void theLoadADispatchCreditsIsReleasedOnceWhenTheRequestEnds() throws Exception {
        DirectorPolicy homing = (DirectorPolicy) Policies.create(Policies.HOMING, context());
        Placement p = homing.place(request("a", tokens(1, 64)));
        String pod = PODS.get(p.pod());
        assertThat(homing.pool().load(pod).inFlightRequests()).isEqualTo(1);
        p.finished(10);
        p.finished(11);
        assertThat(homing.pool().load(pod).inFlightRequests()).isZero();
    }

    @Test
    void homingDealsABurstOfColdRequestsRoundThePods() throws Exception {
        DirectorPolicy homing = (DirectorPolicy) Policies.create(Policies.HOMING, context());
        List<Integer> pods = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            pods.add(homing.place(request("c" + i, tokens(1000 * (i + 1), 64))).pod());
        }
        assertThat(pods).containsExactlyInAnyOrder(0, 1, 2);
    }

    @Test
    void kvEventsFeedThePreciseProducersIndex() throws Exception {
        int[] prompt = tokens(1, 64);
        for (String name : List.of(Policies.HOMING_PRECISE, Policies.LLM_D_PRECISE)) {
            DirectorPolicy precise = (DirectorPolicy) Policies.create(name, context());
            assertThat(precise.consumesKvEvents()).as(name).isTrue();
            List<EventBlockHash> hashes = new ArrayList<>();
            List<List<Object>> extra = new ArrayList<>();
            for (int b = 0; b < 4; b++) {
                hashes.add(EventBlockHash.ofUint64(77 + b));
                extra.add(null);
            }
            precise.kvEvents(2, List.of(BlockStored.gpu(hashes, null, prompt, 16, null, null, extra)));
            assertThat(precise.place(request("p", prompt)).pod()).as(name).isEqualTo(2);
        }
    }

    @Test
    void homingCreditsLoadSentSinceTheLastScrapeAndLlmDDoesNot() {
        for (String name : List.of(Policies.HOMING, Policies.HOMING_PRECISE, Policies.LLM_D, Policies.LLM_D_PRECISE,
                Policies.LEAST_LOADED, Policies.LLM_D_ESTIMATED)) {
            DirectorPolicy p = (DirectorPolicy) Policies.create(name, context());
            boolean homing = name.startsWith("homing");
            assertThat(p.pool().snapshot().endpoints()).as(name)
                    .allSatisfy(e -> assertThat(e.creditUnreflected()).isEqualTo(homing));
        }
    }

    @Test
    void onlyThePrecisePoliciesConsumeKvEvents() {
        for (String name : Policies.knownNames()) {
            Policy p = Policies.create(name, context());
            boolean precise = name.equals(Policies.HOMING_PRECISE) || name.equals(Policies.LLM_D_PRECISE)
                    || name.equals(Policies.DYNAMO);
            assertThat(p.consumesKvEvents()).as(name).isEqualTo(precise);
            assertThat(p.name()).isEqualTo(name);
        }
    }

    @Test
    void thePendingPrefillAPickCreditsEndsAtTheFirstToken() throws Exception {
        DirectorPolicy homing = (DirectorPolicy) Policies.create(Policies.HOMING, context());
        PolicyRequest r = request("a", tokens(1, 64));
        Placement p = homing.place(r);
        String pod = PODS.get(p.pod());
        // The approximate default does not tokenize: llm-d's length estimate stands in for the prompt.
        assertThat(homing.pool().load(pod).pendingPrefillTokens()).isPositive()
                .isEqualTo(r.fields().estimatedPromptTokens());
        p.firstToken(5);
        assertThat(homing.pool().load(pod).pendingPrefillTokens()).isZero();
        assertThat(homing.pool().load(pod).inFlightRequests()).isEqualTo(1);
        p.finished(10);
        assertThat(homing.pool().load(pod).inFlightRequests()).isZero();
    }

    @Test
    void aUsersConfigFileRunsUnderItsLabel(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("mine.yaml");
        Files.writeString(file, """
                apiVersion: llm-d.ai/v1alpha1
                kind: EndpointPickerConfig
                plugins:
                - type: queue-scorer
                schedulingProfiles:
                - name: default
                  plugins:
                  - pluginRef: queue-scorer
                """);
        Policy mine = Policies.create("mine=" + file, context());
        assertThat(mine.name()).isEqualTo("mine");
        assertThat(((DirectorPolicy) mine).pool().snapshot().endpoints()).hasSize(3)
                .allSatisfy(e -> assertThat(e.creditUnreflected()).isTrue());
    }

    @Test
    void aBadPolicyFileIsAClearArgumentError(@TempDir Path dir) throws Exception {
        Path broken = dir.resolve("broken.yaml");
        Files.writeString(broken, """
                apiVersion: llm-d.ai/v1alpha1
                kind: EndpointPickerConfig
                plugins:
                - type: no-such-scorer
                """);
        assertThatThrownBy(() -> Policies.create("x=" + dir.resolve("absent.yaml"), context()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("absent.yaml");
        assertThatThrownBy(() -> Policies.create(Policies.LLM_D + "=" + broken, context()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("taken by a built-in");
        assertThatThrownBy(() -> Policies.create("x=" + broken, context()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no-such-scorer");
        assertThatThrownBy(() -> Policies.create("=" + broken, context()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("LABEL=CONFIG_FILE");
    }
}
