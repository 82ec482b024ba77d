/**
 * Live mode: {@link dev.homing.bench.live.LiveDriver} sends a workload to any OpenAI-compatible server, streamed, and
 * records per request the time to first token, end-to-end latency, token counts from the final usage event, the pod
 * the headers name and the status; {@link dev.homing.bench.live.TerminalProgress} shows it going.
 */
package dev.homing.bench.live;
