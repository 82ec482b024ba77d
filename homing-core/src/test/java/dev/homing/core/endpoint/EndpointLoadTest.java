package dev.homing.core.endpoint;

import static org.assertj.core.api.Assertions.assertThat;

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
}
