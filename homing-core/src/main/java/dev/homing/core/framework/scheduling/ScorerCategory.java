package dev.homing.core.framework.scheduling;

/** llm-d's scorer categories: what a scorer pulls towards. */
public enum ScorerCategory {
    /** Towards endpoints that already hold the request's state (prefix, session, adapter). */
    AFFINITY,
    /** Away from hot spots, spreading requests. */
    DISTRIBUTION,
    /** Towards the least loaded. */
    BALANCE
}
