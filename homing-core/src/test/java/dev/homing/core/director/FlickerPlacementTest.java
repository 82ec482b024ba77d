package dev.homing.core.director;

import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.core.config.DefaultConfig;
import dev.homing.core.endpoint.EndpointMetrics;
import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.fixtures.FakeTicker;
import dev.homing.core.fixtures.Pools;
import dev.homing.core.fixtures.Requests;
import dev.homing.core.framework.plugin.PluginContext;
import dev.homing.core.framework.requestcontrol.Outcome;
import dev.homing.core.plugins.BuiltIns;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The README's burst as a router sees it: 30 cold prompts trickling in over 300 ms (30 curl processes), scrapes every
 * 50 ms, and one pod whose scraped waiting queue flickers between 0 and 1 (a request waiting for the next engine step
 * is caught by every other scrape). Each pod answers a request's first token 40 ms after it arrives and ends it
 * 400 ms later. Under llm-d's min-max queue scorer that flicker is a full weight's swing; Homing's default must spread
 * the burst within ±20 % per pod anyway.
 */
class FlickerPlacementTest {

    private record Event(long at, Runnable run) {
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5})
    void thirtyColdRequestsOverThreeHundredMillisecondsLandEvenlyDespiteAFlickeringQueue(long seed) throws Exception {
        FakeTicker ticker = new FakeTicker();
        EndpointPool pool = Pools.of(3);
        Director director = new Director(pool, DefaultConfig.resolve(BuiltIns.registry(),
                new PluginContext(ticker, new SplittableRandom(seed), pool)).policy(), ticker);
        SplittableRandom r = new SplittableRandom(seed);
        PriorityQueue<Event> events = new PriorityQueue<>((a, b) -> Long.compare(a.at(), b.at()));
        Map<String, Integer> placed = new HashMap<>();
        long ms = 1_000_000L;
        for (int i = 0; i < 30; i++) {
            long at = r.nextLong(0, 300) * ms; // curl processes start in any order over 300 ms
            String prompt = "Write one sentence about topic number " + i + " in cloud computing.";
            events.add(new Event(at, () -> {
                Dispatch d;
                try {
                    d = director.dispatch(Requests.completion(prompt));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
                placed.merge(d.target().name(), 1, Integer::sum);
                long now = ticker.nanos();
                events.add(new Event(now + 40 * ms, d::firstToken));
                events.add(new Event(now + 440 * ms, () -> {
                    d.complete(Outcome.of(Outcome.Cause.NATURAL, 200));
                    d.close();
                }));
            }));
        }
        boolean[] flicker = {false};
        for (long t = 0; t <= 1_000 * ms; t += 50 * ms) {
            events.add(new Event(t, () -> {
                flicker[0] = !flicker[0];
                for (EndpointState e : pool.snapshot().endpoints()) {
                    int running = e.load().inFlightRequests();
                    int waiting = e.name().equals("pod-1") && flicker[0] ? 1 : 0;
                    long mark = pool.load(e.name()).scrapeStarted();
                    pool.updateMetrics(e.name(), new EndpointMetrics(waiting, running, 0.01 * running, 16, 21_845,
                            Set.of(), Set.of(), -1, ticker.nanos()), mark);
                }
            }));
        }
        while (!events.isEmpty()) {
            Event e = events.poll();
            if (e.at() > ticker.nanos()) {
                ticker.advance(Duration.ofNanos(e.at() - ticker.nanos()));
            }
            e.run().run();
        }
        assertThat(placed.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(30);
        for (String pod : List.of("pod-0", "pod-1", "pod-2")) {
            assertThat(placed.getOrDefault(pod, 0)).as("%s of %s", pod, placed).isBetween(8, 12);
        }
        assertThat(pool.snapshot().endpoints()).allSatisfy(s -> assertThat(s.inFlightRequests()).isZero());
    }
}
