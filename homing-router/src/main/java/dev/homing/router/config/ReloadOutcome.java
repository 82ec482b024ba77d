package dev.homing.router.config;

/** What one look at a {@link WatchedFile} did, for logs, metrics and tests. */
public enum ReloadOutcome {
    /** The file reads as what was last acted on (applied, or refused): nothing to do. */
    UNCHANGED,
    /** The file changed, but this read is the first to see it so: it is acted on once the next read agrees. */
    SETTLING,
    /** A settled change was used. */
    APPLIED,
    /** A settled change could not be read or used; what runs stays. */
    REFUSED
}
