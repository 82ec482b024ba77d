package dev.homing.core.endpoint;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class EndpointLoadTest {

    private final EndpointLoad load = new EndpointLoad();

    @Test
    void creditedAtOnceAndReleasedOnce() {
        Lease a = load.acquire(100, 150);
        Lease b = load.acquire(10, 30);
        assertThat(load.inFlightRequests()).isEqualTo(2);
        assertThat(load.inFlightTokens()).isEqualTo(180);
        a.close();
        a.close();
        assertThat(load.inFlightRequests()).isEqualTo(1);
        assertThat(load.inFlightTokens()).isEqualTo(30);
        b.close();
        assertThat(load.inFlightRequests()).isZero();
        assertThat(load.unreflectedRequests()).isZero();
        assertThat(load.unreflectedPromptTokens()).isZero();
    }

    @Test
    void pendingPrefillLastsUntilTheFirstTokenOrTheEnd() {
        Lease answered = load.acquire(100, 150);
        Lease failed = load.acquire(10, 30);
        assertThat(load.pendingPrefillTokens()).isEqualTo(110);
        answered.prefillDone();
        answered.prefillDone();
        assertThat(load.pendingPrefillTokens()).isEqualTo(10);
        assertThat(load.inFlightTokens()).isEqualTo(180); // prefilled, still decoding
        answered.close();
        assertThat(load.pendingPrefillTokens()).isEqualTo(10);
        failed.close(); // ended before any token: its prefill will never come
        failed.prefillDone();
        assertThat(load.pendingPrefillTokens()).isZero();
        assertThat(load.inFlightTokens()).isZero();
    }

    @Test
    void aScrapeReflectsOnlyWhatWasSentBeforeItBegan() {
        Lease before = load.acquire(100, 100);
        long mark = load.scrapeStarted();
        Lease during = load.acquire(7, 7);
        load.scrapeCompleted(mark);
        assertThat(load.unreflectedRequests()).isEqualTo(1);
        assertThat(load.unreflectedPromptTokens()).isEqualTo(7);
        assertThat(load.inFlightRequests()).isEqualTo(2);
        before.close();
        assertThat(load.unreflectedRequests()).isEqualTo(1);
        during.close();
        assertThat(load.unreflectedRequests()).isZero();
    }

    @Test
    void aLateOlderScrapeDoesNotUndoANewerOne() {
        load.acquire(1, 1);
        long older = load.scrapeStarted();
        load.acquire(2, 2);
        long newer = load.scrapeStarted();
        load.scrapeCompleted(newer);
        load.scrapeCompleted(older);
        assertThat(load.unreflectedRequests()).isZero();
        load.acquire(3, 3);
        load.scrapeCompleted(older);
        assertThat(load.unreflectedRequests()).isEqualTo(1);
    }

    @Test
    void releaseAfterReflectionDoesNotDoubleCount() {
        Lease l = load.acquire(5, 5);
        load.scrapeCompleted(load.scrapeStarted());
        l.close();
        assertThat(load.unreflectedRequests()).isZero();
        assertThat(load.unreflectedPromptTokens()).isZero();
        assertThat(load.inFlightRequests()).isZero();
    }

    @Test
    void otherReplicasCountsAreKeptApartFromThisRoutersAndReplacedWhole() {
        Lease mine = load.acquire(10, 40);
        load.setRemote(3, 300);
        assertThat(load.inFlightRequests()).isEqualTo(1);
        assertThat(load.inFlightTokens()).isEqualTo(40);
        assertThat(load.remoteInFlightRequests()).isEqualTo(3);
        assertThat(load.remoteInFlightTokens()).isEqualTo(300);
        load.setRemote(1, 20);
        mine.close();
        assertThat(load.inFlightRequests()).isZero();
        assertThat(load.remoteInFlightRequests()).isEqualTo(1);
        assertThat(load.remoteInFlightTokens()).isEqualTo(20);
        load.setRemote(-2, -5); // a reading that went below zero is no load, not negative load
        assertThat(load.remoteInFlightRequests()).isZero();
        assertThat(load.remoteInFlightTokens()).isZero();
    }

    @Test
    void theListenerHearsEachCreditAndEachReleaseExactlyOnce() {
        List<String> heard = new ArrayList<>();
        EndpointLoad heardLoad = new EndpointLoad("pod-7", new LoadListener() {
            @Override
            public void acquired(String endpoint, long totalTokens) {
                heard.add("+" + endpoint + ":" + totalTokens);
            }

            @Override
            public void released(String endpoint, long totalTokens) {
                heard.add("-" + endpoint + ":" + totalTokens);
            }
        });
        Lease a = heardLoad.acquire(5, 50);
        Lease b = heardLoad.acquire(1, -3); // a negative estimate is credited, and reported, as zero
        heardLoad.scrapeCompleted(heardLoad.scrapeStarted()); // reflection is not a release
        a.close();
        a.close();
        b.close();
        assertThat(heard).containsExactly("+pod-7:50", "+pod-7:0", "-pod-7:50", "-pod-7:0");
    }

    @Test
    void aListenerThatThrowsOnCreditLeavesNothingCredited() {
        EndpointLoad broken = new EndpointLoad("pod-0", new LoadListener() {
            @Override
            public void acquired(String endpoint, long totalTokens) {
                throw new IllegalStateException("broken listener");
            }

            @Override
            public void released(String endpoint, long totalTokens) {
            }
        });
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> broken.acquire(1, 1))
                .isInstanceOf(IllegalStateException.class);
        assertThat(broken.inFlightRequests()).isZero();
        assertThat(broken.unreflectedRequests()).isZero();
    }
}
