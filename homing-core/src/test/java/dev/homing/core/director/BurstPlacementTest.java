package dev.homing.core.director;

import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.core.config.DefaultConfig;
import dev.homing.core.fixtures.FakeFleet;
import dev.homing.core.fixtures.FakeTicker;
import dev.homing.core.fixtures.Requests;
import dev.homing.core.framework.plugin.PluginContext;
import dev.homing.core.plugins.BuiltIns;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Where a burst of requests sharing one long prefix goes with Homing's default profile: home while the home pod has
 * room, then, once its queue outweighs a miss, to the least loaded pods (which then hold the prefix too).
 */
class BurstPlacementTest {

    private static FakeFleet fleet(int pods, int seats, int scrapeEvery) {
        return fleet(pods, seats, scrapeEvery, 20_000);
    }

    private static FakeFleet fleet(int pods, int seats, int scrapeEvery, long blocksPerPod) {
        return new FakeFleet(pods, seats, scrapeEvery, blocksPerPod, pool -> DefaultConfig.resolve(BuiltIns.registry(),
                new PluginContext(new FakeTicker(), new SplittableRandom(3), pool)).policy());
    }

    @Test
    void sharedPrefixGoesHomeUntilItsQueueShowsThenOverflowsToTheLeastLoaded() throws Exception {
        FakeFleet fleet = fleet(8, 10, 5, 400); // its KV cache is full with its seats: the rest wait for memory
        String system = Requests.prose(1, 600); // a long shared system prompt
        List<String> placed = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            int leastLoaded = java.util.stream.IntStream.range(0, 8).map(p -> fleet.inFlight("pod-" + p)).min().orElseThrow();
            String pod = fleet.send(Requests.completion(system + " question " + i + " " + Requests.prose(1000 + i, 20)));
            if (!placed.isEmpty() && !pod.equals(placed.get(placed.size() - 1))) {
                assertThat(fleet.inFlight(pod) - 1).as("request %d left %s for the least loaded pod", i,
                        placed.get(placed.size() - 1)).isEqualTo(leastLoaded);
            }
            placed.add(pod);
        }
        String home = placed.get(0);
        // While home had free seats (10), everything went home.
        assertThat(placed.subList(0, 10)).containsOnly(home);
        int firstAway = placed.indexOf(placed.stream().filter(p -> !p.equals(home)).findFirst().orElseThrow());
        // Then it stayed home while waiting there (a few short questions' prefill behind a full KV cache) cost less
        // than prefilling the 600-word prefix elsewhere, and left once home's queue and full cache outweighed it.
        assertThat(firstAway).isBetween(15, 30);
        // No pod was given more than its seats plus a bounded queue; four pods or more share the load.
        for (int p = 0; p < 8; p++) {
            assertThat(fleet.inFlight("pod-" + p)).isLessThanOrEqualTo(10 + 20);
        }
        assertThat(placed.stream().distinct().count()).isGreaterThanOrEqualTo(4);
        fleet.closeAll();
    }

    @Test
    void newcomersSpreadEvenlyEvenWithSlowScrapes() throws Exception {
        FakeFleet fleet = fleet(8, 64, 1000); // no scrape during the burst at all
        List<String> placed = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            placed.add(fleet.send(Requests.completion(Requests.prose(i, 30))));
        }
        for (int p = 0; p < 8; p++) {
            assertThat(fleet.inFlight("pod-" + p)).as("pod-%d", p).isBetween(12, 13); // mean 12.5, within +-10%
        }
        fleet.closeAll();
    }
}
