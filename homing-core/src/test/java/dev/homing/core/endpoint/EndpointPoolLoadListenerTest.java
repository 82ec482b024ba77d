package dev.homing.core.endpoint;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class EndpointPoolLoadListenerTest {

    private final List<String> heard = new ArrayList<>();
    private final LoadListener recorder = new LoadListener() {
        @Override
        public void acquired(String endpoint, long totalTokens) {
            heard.add("+" + endpoint);
        }

        @Override
        public void released(String endpoint, long totalTokens) {
            heard.add("-" + endpoint);
        }
    };

    @Test
    void aListenerSetAfterMembersExistHearsTheirLeasesAndANewMembersToo() {
        EndpointPool pool = new EndpointPool();
        pool.setEndpoints(List.of(new Endpoint("a", "127.0.0.1", 8000)));
        Lease before = pool.load("a").acquire(1, 1); // credited before anyone listened
        pool.setLoadListener(recorder);
        pool.setEndpoints(List.of(new Endpoint("a", "127.0.0.1", 8000), new Endpoint("b", "127.0.0.1", 8001)));
        Lease a = pool.load("a").acquire(1, 1);
        Lease b = pool.load("b").acquire(1, 1);
        b.close();
        a.close();
        before.close();
        assertThat(heard).containsExactly("+a", "+b", "-b", "-a", "-a");
    }

    @Test
    void remoteCountsReachTheSnapshotsStatesWithoutARebuild() {
        EndpointPool pool = new EndpointPool();
        pool.setEndpoints(List.of(new Endpoint("a", "127.0.0.1", 8000)));
        EndpointState state = pool.snapshot().get("a");
        pool.load("a").acquire(1, 10);
        pool.load("a").setRemote(2, 30);
        assertThat(state.inFlightRequests()).isEqualTo(3);
        assertThat(state.inFlightTokens()).isEqualTo(40);
    }
}
