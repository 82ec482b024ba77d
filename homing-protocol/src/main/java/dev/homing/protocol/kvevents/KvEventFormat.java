package dev.homing.protocol.kvevents;

/** How events are laid out inside a batch; the outer batch is a positional array in every released vLLM. */
public enum KvEventFormat {
    /**
     * vLLM ≤ ~0.25 ({@code array_like=True}): {@code ["BlockStored", f1, f2, ...]}, every declared field present and
     * nil for None. What llm-d-kv-cache's vLLM adapter decodes by position; the default.
     */
    ARRAY,
    /**
     * vLLM ≥ ~0.26 (PR #42892): {@code {"type": "BlockStored", f1: ..., ...}} in declaration order, fields that hold
     * their default omitted, required ones present even when None.
     */
    MAP
}
