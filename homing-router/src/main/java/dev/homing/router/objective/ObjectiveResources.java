package dev.homing.router.objective;

import dev.homing.core.config.ConfigException;
import dev.homing.core.config.ConfigNode;
import dev.homing.core.config.MappingReader;
import dev.homing.core.config.YamlReader;
import dev.homing.core.objective.InferenceObjective;
import dev.homing.core.objective.ModelRewrite;
import dev.homing.core.objective.Objectives;
import dev.homing.core.objective.RewriteRule;
import dev.homing.core.objective.RewriteTarget;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code InferenceObjective} and {@code InferenceModelRewrite} resources as one would {@code kubectl apply} them
 * ({@code inference.networking.x-k8s.io/v1alpha2}; the types of gateway-api-inference-extension
 * {@code apix/v1alpha2}, now llm-d/llm-d-router's), read into one {@link Objectives} snapshot: the objectives file
 * ({@code homing serve --objectives-file}, several documents separated by {@code ---}) and, one resource at a time,
 * what the cluster holds. Spec fields are read strictly, with the validation the CRDs ask of the API server (a rule's
 * targets at least one, weights 1 to 1,000,000, a match type {@code Exact}); metadata and status are not judged, so a
 * resource exported from a cluster reads as it is. Errors name the file and line.
 *
 * <pre>{@code
 * apiVersion: inference.networking.x-k8s.io/v1alpha2
 * kind: InferenceObjective
 * metadata: {name: critical}
 * spec: {priority: 10, poolRef: {name: my-pool}}
 * ---
 * apiVersion: inference.networking.x-k8s.io/v1alpha2
 * kind: InferenceModelRewrite
 * metadata: {name: food-review-canary}
 * spec:
 *   poolRef: {name: my-pool}
 *   rules:
 *   - matches: [{model: {type: Exact, value: food-review}}]
 *     targets: [{modelRewrite: food-review-v1, weight: 90}, {modelRewrite: food-review-v2, weight: 10}]
 * }</pre>
 */
public final class ObjectiveResources {

    public static final String API_VERSION = "inference.networking.x-k8s.io/v1alpha2";
    public static final String OBJECTIVE = "InferenceObjective";
    public static final String REWRITE = "InferenceModelRewrite";

    private static final Set<String> TOP = Set.of("apiVersion", "kind", "metadata", "spec", "status");
    private static final Set<String> OBJECTIVE_SPEC = Set.of("priority", "poolRef");
    private static final Set<String> REWRITE_SPEC = Set.of("poolRef", "rules");
    private static final Set<String> POOL_REF = Set.of("group", "kind", "name");
    private static final Set<String> RULE = Set.of("matches", "targets");
    private static final Set<String> MATCH = Set.of("model");
    private static final Set<String> MODEL_MATCH = Set.of("type", "value");
    private static final Set<String> TARGET = Set.of("modelRewrite", "weight");
    private static final int MAX_WEIGHT = 1_000_000;

    /**
     * One resource read: an objective or a rewrite, and the pool its {@code spec.poolRef} names.
     *
     * @param poolGroup {@code spec.poolRef.group}, null when not given (the CRD's default is
     *                  {@code inference.networking.k8s.io}, which an API server fills in)
     * @param poolKind  {@code spec.poolRef.kind}, null when not given (the CRD's default is {@code InferencePool})
     */
    public record Resource(InferenceObjective objective, ModelRewrite rewrite, String pool, String poolGroup,
                           String poolKind) {

        /** The resource's name (its {@code metadata.name}). */
        public String name() {
            return objective != null ? objective.name() : rewrite.name();
        }

        /** Its kind: {@link #OBJECTIVE} or {@link #REWRITE}. */
        public String kind() {
            return objective != null ? OBJECTIVE : REWRITE;
        }
    }

    /** A pool reference: {@code spec.poolRef}'s name, and its group and kind when given. */
    private record PoolRef(String name, String group, String kind) {
    }

    private ObjectiveResources() {
    }

    /** The objectives file: every document a resource of either kind. */
    public static Objectives parseFile(String source, String text) throws ConfigException {
        List<InferenceObjective> objectives = new ArrayList<>();
        List<ModelRewrite> rewrites = new ArrayList<>();
        Map<String, Integer> seen = new HashMap<>();
        for (ConfigNode doc : YamlReader.readAll(text, source)) {
            Resource r = resource(source, doc);
            String key = r.kind() + "/" + r.name();
            Integer before = seen.putIfAbsent(key, doc.line());
            if (before != null) {
                throw new ConfigException(source, doc.line(), key + " is already defined at line " + before);
            }
            if (r.objective() != null) {
                objectives.add(r.objective());
            } else {
                rewrites.add(r.rewrite()); // file order is precedence order, as creation time is in a cluster
            }
        }
        return Objectives.of(objectives, rewrites);
    }

    /**
     * One object as the cluster's API server gives it, as JSON (a watched resource serialised): read as a document of
     * the file is, its metadata and status not judged.
     */
    public static Resource fromJson(String source, String json) throws ConfigException {
        return resource(source, YamlReader.read(json, source, "a resource"));
    }

    /** One resource (a document of the file, or an object from the cluster as JSON, which is YAML too). */
    public static Resource resource(String source, ConfigNode doc) throws ConfigException {
        MappingReader top = MappingReader.of(source, "a resource", doc, TOP);
        String apiVersion = top.string("apiVersion", true);
        String kind = top.string("kind", true);
        if (!API_VERSION.equals(apiVersion)) {
            throw new ConfigException(source, top.line("apiVersion"), "apiVersion '" + apiVersion + "' is not "
                    + API_VERSION + ", the version of " + OBJECTIVE + " and " + REWRITE);
        }
        ConfigNode metadata = top.node("metadata");
        if (metadata == null) {
            throw new ConfigException(source, top.line(), kind + " needs metadata.name");
        }
        String name = lenient(source, metadata, kind + " metadata").string("name", true);
        ConfigNode specNode = top.node("spec");
        if (specNode == null) {
            throw new ConfigException(source, top.line(), kind + " " + name + " needs a spec");
        }
        String what = kind + " " + name;
        return switch (kind) {
            case OBJECTIVE -> {
                MappingReader spec = MappingReader.of(source, what + " spec", specNode, OBJECTIVE_SPEC);
                PoolRef pool = pool(source, spec, what);
                yield new Resource(new InferenceObjective(name, priority(source, spec, what)), null, pool.name(),
                        pool.group(), pool.kind());
            }
            case REWRITE -> {
                MappingReader spec = MappingReader.of(source, what + " spec", specNode, REWRITE_SPEC);
                List<RewriteRule> rules = new ArrayList<>();
                List<ConfigNode> items = spec.list("rules");
                for (int i = 0; i < items.size(); i++) {
                    rules.add(rule(source, items.get(i), what + " rules[" + i + "]"));
                }
                PoolRef pool = pool(source, spec, what);
                yield new Resource(null, new ModelRewrite(name, rules), pool.name(), pool.group(), pool.kind());
            }
            default -> throw new ConfigException(source, top.line("kind"), "kind '" + kind + "' is neither "
                    + OBJECTIVE + " nor " + REWRITE);
        };
    }

    private static MappingReader lenient(String source, ConfigNode node, String what) throws ConfigException {
        Set<String> keys = node instanceof ConfigNode.Mapping m ? m.entries().keySet() : Set.of();
        return MappingReader.of(source, what, node, keys);
    }

    private static int priority(String source, MappingReader spec, String what) throws ConfigException {
        Double p = spec.number("priority");
        if (p == null) {
            return Objectives.DEFAULT_PRIORITY; // unset is 0, as llm-d reads it
        }
        if (p != Math.rint(p) || p < Integer.MIN_VALUE || p > Integer.MAX_VALUE) {
            throw new ConfigException(source, spec.line("priority"), what + " priority must be a 32-bit integer");
        }
        return p.intValue();
    }

    private static PoolRef pool(String source, MappingReader spec, String what) throws ConfigException {
        ConfigNode ref = spec.node("poolRef");
        if (ref == null) {
            throw new ConfigException(source, spec.line(), what + " needs spec.poolRef (the CRD requires it)");
        }
        MappingReader r = MappingReader.of(source, what + " poolRef", ref, POOL_REF);
        return new PoolRef(r.string("name", true), r.string("group", false), r.string("kind", false));
    }

    private static RewriteRule rule(String source, ConfigNode node, String what) throws ConfigException {
        MappingReader rule = MappingReader.of(source, what, node, RULE);
        Set<String> models = new LinkedHashSet<>();
        for (ConfigNode m : rule.list("matches")) {
            ConfigNode model = MappingReader.of(source, what + " match", m, MATCH).node("model");
            if (model == null) {
                throw new ConfigException(source, m.line(), what + " match needs 'model'");
            }
            MappingReader mm = MappingReader.of(source, what + " match model", model, MODEL_MATCH);
            String type = mm.string("type", false);
            if (type != null && !type.equals("Exact")) {
                throw new ConfigException(source, mm.line("type"), what + " match type '" + type
                        + "' is not supported; the one type is Exact");
            }
            models.add(mm.string("value", true));
        }
        List<ConfigNode> items = rule.list("targets");
        if (items.isEmpty()) {
            throw new ConfigException(source, rule.line(), what + " needs at least one target");
        }
        List<RewriteTarget> targets = new ArrayList<>();
        for (ConfigNode t : items) {
            MappingReader target = MappingReader.of(source, what + " target", t, TARGET);
            Double w = target.number("weight");
            if (w != null && (w != Math.rint(w) || w < 1 || w > MAX_WEIGHT)) {
                throw new ConfigException(source, target.line("weight"), what + " target weight must be an integer "
                        + "from 1 to " + MAX_WEIGHT);
            }
            targets.add(new RewriteTarget(target.string("modelRewrite", true), w == null ? 0 : w.intValue()));
        }
        return new RewriteRule(List.copyOf(models), targets);
    }
}
