/**
 * Workloads for {@code homing bench}: what each request asks and when it arrives, made by
 * {@link dev.homing.bench.workload.Workloads#create} from a name, string parameters and a seed, and the hit rate an
 * infinite cache would reach on them ({@link dev.homing.bench.workload.HitRateBound}).
 *
 * <p><b>Prompts</b> are built from the simulator tokenizer's vocabulary words (one token each, leading space
 * included), so every prompt has exactly the requested length and its token ids are known without tokenizing; a
 * chat's tokens are the template-applied ones the engine sees. Traces are tokenized once when read.
 *
 * <p><b>Parameters</b>: lengths {@code N} or {@code mean:std_dev:min:max}; {@code qps} a rate with {@code duration}
 * seconds, or a ladder {@code 3x20,10x20} (QPS × seconds per stage); {@code concurrency} a closed loop;
 * {@code num_requests} the count for closed loops and bursts, a cap otherwise; {@code seed} overrides the run's seed.
 * {@link dev.homing.bench.workload.Workloads#catalog()} lists every workload's parameters with their defaults.
 *
 * <p><b>Multi-turn</b>: a request with {@code conversation ≥ 0} and {@code turn > 0} extends the prompt of the
 * request with the same conversation and {@code turn − 1}, which comes earlier in the workload; it is sent at
 * {@code max(arrival, end of that request)}, in closed loop as in scheduled runs. A turn with a gap
 * ({@code gapNanos ≥ 0}: a {@code long-context} think time, a trace session's recorded gap or AIPerf {@code delay})
 * is sent exactly that gap after the end of its predecessor instead, whatever its arrival says.
 *
 * <p><b>Determinism</b>: the same name, parameters and seed make an identical workload. Prompts and arrivals draw
 * from separate streams of the seed, so changing the load leaves the prompts as they were.
 */
package dev.homing.bench.workload;
