/**
 * What the state plugins learn from picks (core's {@code dev.homing.core.learned}: the approximate prefix index and
 * the newcomer order), shared by a pool's router replicas through the Redis they share. Each replica keeps its own
 * in-memory copy, applies its picks to it at once, and appends them to a bounded Redis stream per plugin; a follower
 * thread applies the other replicas' appends to the copy. Decisions never wait on Redis: the copy answers every
 * lookup. {@link dev.homing.router.learned.RedisLearnedState} assembles it.
 */
package dev.homing.router.learned;
