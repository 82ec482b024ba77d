/**
 * Precise prefix routing's router side, one tree: {@code events} subscribes to the pods' KV-event publishers (live and
 * replayed) and applies their events to the producers' indexes; {@code redis} keeps those indexes in the Redis the
 * replicas share, with its Lua scripts beside it. {@link dev.homing.router.precise.PreciseRouting} assembles both.
 * The producers themselves are core's ({@code dev.homing.core.plugins.prefix.precise}), reached as
 * {@link dev.homing.core.precise.KvEventFeed}s.
 */
package dev.homing.router.precise;
