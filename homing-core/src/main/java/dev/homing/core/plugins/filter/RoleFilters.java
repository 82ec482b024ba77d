package dev.homing.core.plugins.filter;

import dev.homing.core.framework.plugin.PluginType;
import java.util.List;

/**
 * llm-d's role filters over the label {@value #ROLE_LABEL}. The pipeline is encode → prefill → decode; a pod's role
 * names the stages it can run. Decode also keeps unlabelled pods (an aggregated pool has no roles); prefill and encode
 * do not, so a pool without prefill pods never disaggregates by accident.
 */
public final class RoleFilters {

    public static final String ROLE_LABEL = "llm-d.ai/role";
    public static final String DECODE_TYPE = "decode-filter";
    public static final String PREFILL_TYPE = "prefill-filter";
    public static final String ENCODE_TYPE = "encode-filter";
    public static final PluginType DECODE = PluginType.of(DECODE_TYPE, (name, p, ctx) -> decode(name));
    public static final PluginType PREFILL = PluginType.of(PREFILL_TYPE, (name, p, ctx) -> prefill(name));
    public static final PluginType ENCODE = PluginType.of(ENCODE_TYPE, (name, p, ctx) -> encode(name));

    private RoleFilters() {
    }

    /** decode, prefill-decode, both (deprecated), encode-prefill-decode, or no role. */
    public static ByLabelFilter decode(String name) {
        return new ByLabelFilter(DECODE_TYPE, name, ROLE_LABEL, true,
                List.of("decode", "prefill-decode", "both", "encode-prefill-decode"));
    }

    /** prefill, encode-prefill, prefill-decode, both (deprecated), encode-prefill-decode. */
    public static ByLabelFilter prefill(String name) {
        return new ByLabelFilter(PREFILL_TYPE, name, ROLE_LABEL, false,
                List.of("prefill", "encode-prefill", "prefill-decode", "both", "encode-prefill-decode"));
    }

    /** encode, encode-prefill, encode-prefill-decode. */
    public static ByLabelFilter encode(String name) {
        return new ByLabelFilter(ENCODE_TYPE, name, ROLE_LABEL, false,
                List.of("encode", "encode-prefill", "encode-prefill-decode"));
    }
}
