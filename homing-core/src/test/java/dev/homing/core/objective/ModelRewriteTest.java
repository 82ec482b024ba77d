package dev.homing.core.objective;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Matching and weighted choice as llm-d's director and rewrite store do them. */
class ModelRewriteTest {

    private static RewriteRule rule(List<String> models, RewriteTarget... targets) {
        return new RewriteRule(models, List.of(targets));
    }

    private static Map<String, Integer> draws(RewriteRule rule, int n) {
        SplittableRandom random = new SplittableRandom(17);
        Map<String, Integer> counts = new HashMap<>();
        for (int i = 0; i < n; i++) {
            counts.merge(rule.choose(random), 1, Integer::sum);
        }
        return counts;
    }

    @Test
    void weightsGiveProportions() {
        RewriteRule r = rule(List.of("m"), new RewriteTarget("a", 80), new RewriteTarget("b", 20));
        Map<String, Integer> c = draws(r, 20_000);
        // binomial sd = sqrt(20000 * .8 * .2) ~ 57: 5 sd either way
        assertTrue(Math.abs(c.get("a") - 16_000) < 300, c.toString());
        assertTrue(Math.abs(c.get("b") - 4_000) < 300, c.toString());
    }

    @Test
    void noWeightsSplitEvenly() {
        RewriteRule r = rule(List.of("m"), new RewriteTarget("a", 0), new RewriteTarget("b", 0),
                new RewriteTarget("c", 0));
        Map<String, Integer> c = draws(r, 30_000);
        for (String t : List.of("a", "b", "c")) {
            assertTrue(Math.abs(c.get(t) - 10_000) < 400, c.toString());
        }
    }

    @Test
    void anUnsetWeightAmongSetOnesIsNeverChosen() {
        RewriteRule r = rule(List.of("m"), new RewriteTarget("a", 5), new RewriteTarget("never", 0));
        assertEquals(Map.of("a", 1_000), draws(r, 1_000));
    }

    @Test
    void exactBeatsGenericAndTheFirstResourceWins() {
        ModelRewrite older = new ModelRewrite("older", List.of(
                rule(List.of(), new RewriteTarget("catch-all", 1)),
                rule(List.of("llama"), new RewriteTarget("llama-v1", 1))));
        ModelRewrite newer = new ModelRewrite("newer", List.of(
                rule(List.of("llama", "qwen"), new RewriteTarget("from-newer", 1)),
                rule(List.of(), new RewriteTarget("newer-catch-all", 1))));
        Objectives o = Objectives.of(List.of(), List.of(older, newer));
        SplittableRandom random = new SplittableRandom(1);
        assertEquals(new RewriteDecision("older", "llama", "llama-v1"), o.rewrite("llama", random));
        assertEquals(new RewriteDecision("newer", "qwen", "from-newer"), o.rewrite("qwen", random));
        assertEquals(new RewriteDecision("older", "other", "catch-all"), o.rewrite("other", random));
        assertNull(o.rewrite(null, random));
    }

    @Test
    void withinOneResourceTheFirstMatchingRuleWins() {
        ModelRewrite r = new ModelRewrite("r", List.of(
                rule(List.of("m"), new RewriteTarget("first", 1)),
                rule(List.of("m"), new RewriteTarget("second", 1))));
        assertEquals("first", Objectives.of(List.of(), List.of(r)).rewrite("m", new SplittableRandom(3)).target());
    }

    @Test
    void noRuleNoDecision() {
        ModelRewrite r = new ModelRewrite("r", List.of(rule(List.of("m"), new RewriteTarget("t", 1))));
        Objectives o = Objectives.of(List.of(new InferenceObjective("critical", 10)), List.of(r));
        assertNull(o.rewrite("unmatched", new SplittableRandom(3)));
        assertEquals(10, o.priority("critical"));
        assertNull(Objectives.NONE.rewrite("m", new SplittableRandom(3)));
    }

    @Test
    void aRuleNeedsATarget() {
        assertThrows(IllegalArgumentException.class, () -> new RewriteRule(List.of("m"), List.of()));
    }
}
