package dev.homing.core.plugins.scorer;

import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.framework.plugin.NamedPlugin;
import dev.homing.core.framework.plugin.Parameters;
import dev.homing.core.framework.plugin.PluginConfigException;
import dev.homing.core.framework.plugin.PluginContext;
import dev.homing.core.framework.plugin.PluginType;
import dev.homing.core.framework.scheduling.Cycle;
import dev.homing.core.framework.scheduling.Filter;
import dev.homing.core.framework.scheduling.PromptTokens;
import dev.homing.core.framework.scheduling.Scorer;
import dev.homing.core.framework.scheduling.ScorerCategory;
import dev.homing.protocol.openai.PromptShape;
import dev.homing.protocol.openai.RoutingFields;
import java.util.List;

/**
 * llm-d's {@code context-length-aware}: endpoints declare the prompt lengths they are meant for with a label
 * ({@code label}, default {@value #DEFAULT_LABEL}) of the form {@code "min-max"} in tokens.
 *
 * <p>Score: in range, {@code 0.3 + 0.7 · (0.7 · 1/(1 + width/10000) + 0.3 · (max − length)/width)} (1.0 when the
 * range is a single length), so a tighter range and more headroom win and any in-range endpoint beats every
 * out-of-range one; out of range, {@code 0.3/(1 + distance/1000)} by distance to the nearer bound; no label 0.5; a
 * label that does not parse 0. As a filter ({@code enableFiltering}, default false) it keeps unlabelled and in-range
 * endpoints; it may keep none, as llm-d's does.
 *
 * <p>The length is exact for token-id prompts and when a token producer has tokenized the prompt in this cycle;
 * otherwise a quarter of the prompt's bytes, as llm-d estimates without a tokenizer. llm-d counts the characters of the message contents; Homing counts the bytes of the {@code messages}
 * JSON (roles and punctuation included), which it has without decoding the prompt: slightly longer for chat.
 */
public final class ContextLengthAware extends NamedPlugin implements Scorer, Filter {

    public static final String TYPE = "context-length-aware";
    public static final PluginType PLUGIN_TYPE = PluginType.of(TYPE, ContextLengthAware::create);
    public static final String DEFAULT_LABEL = "llm-d.ai/context-length-range";
    private static final double MAX_FALLBACK_SCORE = 0.3;

    private final String label;
    private final boolean enableFiltering;

    /** Parameters: {@code label} ({@value #DEFAULT_LABEL}), {@code enableFiltering} (false). */
    static ContextLengthAware create(String name, Parameters p, PluginContext ctx) {
        return new ContextLengthAware(name, p.string("label", DEFAULT_LABEL), p.bool("enableFiltering", false));
    }

    public ContextLengthAware(String name, String label, boolean enableFiltering) {
        super(TYPE, name);
        if (label == null || label.isBlank()) {
            throw new PluginConfigException("parameter 'label' must not be empty");
        }
        this.label = label;
        this.enableFiltering = enableFiltering;
    }

    /** A label's {@code min-max}; null when it does not parse. */
    record Range(int min, int max) {
        static Range parse(String text) {
            if (text == null || text.isEmpty()) {
                return null;
            }
            String[] bounds = text.split("-", -1);
            if (bounds.length != 2) {
                return null;
            }
            try {
                int min = Integer.parseInt(bounds[0].strip());
                int max = Integer.parseInt(bounds[1].strip());
                return min <= max ? new Range(min, max) : null;
            } catch (NumberFormatException e) {
                return null;
            }
        }
    }

    private static int contextLength(Cycle cycle) {
        PromptTokens t = cycle.get(PromptTokens.KEY);
        return t != null ? t.length() : contextLength(cycle.request().fields());
    }

    /** Prompt tokens: exact for token ids, else bytes × 0.25 (a text prompt's quotes not counted). */
    static int contextLength(RoutingFields fields) {
        if (fields.tokenCount() >= 0) {
            return fields.tokenCount();
        }
        int chars = fields.promptShape() == PromptShape.TEXT ? Math.max(0, fields.promptLength() - 2) : fields.promptLength();
        return (int) (chars * 0.25);
    }

    static double rangeScore(int length, Range r) {
        if (length >= r.min() && length <= r.max()) {
            int width = r.max() - r.min();
            if (width == 0) {
                return 1.0;
            }
            double widthScore = 1.0 / (1.0 + width / 10000.0);
            double positionScore = (double) (r.max() - length) / width;
            return MAX_FALLBACK_SCORE + (0.7 * widthScore + 0.3 * positionScore) * (1.0 - MAX_FALLBACK_SCORE);
        }
        int distance = length > r.max() ? length - r.max() : r.min() - length;
        return MAX_FALLBACK_SCORE / (1.0 + distance / 1000.0);
    }

    @Override
    public List<EndpointState> filter(Cycle cycle, List<EndpointState> candidates) {
        if (!enableFiltering) {
            return candidates;
        }
        int length = contextLength(cycle);
        return Filter.keep(candidates, e -> {
            String value = e.endpoint().label(label);
            if (value == null) {
                return true; // unlabelled endpoints take any length
            }
            Range r = Range.parse(value);
            return r != null && length >= r.min() && length <= r.max();
        });
    }

    @Override
    public double[] score(Cycle cycle, List<EndpointState> candidates) {
        double[] scores = new double[candidates.size()];
        if (scores.length == 0) {
            return scores;
        }
        int length = contextLength(cycle);
        for (int i = 0; i < scores.length; i++) {
            String value = candidates.get(i).endpoint().label(label);
            if (value == null) {
                scores[i] = 0.5;
                continue;
            }
            Range r = Range.parse(value);
            scores[i] = r == null ? 0.0 : rangeScore(length, r);
        }
        return scores;
    }

    @Override
    public ScorerCategory category() {
        return ScorerCategory.AFFINITY;
    }
}
