package dev.homing.router.precise.events;

import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.protocol.kvevents.BlockRemoved;
import dev.homing.protocol.kvevents.EventBlockHash;
import dev.homing.protocol.kvevents.KvCacheEvent;
import dev.homing.protocol.kvevents.KvEventBatch;
import dev.homing.protocol.kvevents.KvEventEncoder;
import dev.homing.protocol.kvevents.KvEventFormat;
import java.util.ArrayList;
import java.util.List;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The sequence rules, without sockets: each batch carries one event naming its own sequence number, so what reached
 * the index, and in which order relative to the clears, is exact. A restarted publisher's batches carry another
 * timestamp, as a real engine's do.
 */
class PublisherStreamTest {

    private static final String POD = "pod-a";
    private static final KvEventEncoder ENCODER = new KvEventEncoder(KvEventFormat.ARRAY);

    /** What the index was told, in order: "apply N" or "clear". */
    private final List<String> index = new ArrayList<>();
    private final RecordingObserver observer = new RecordingObserver();

    private final EventSink sink = new EventSink() {
        @Override
        public void apply(String pod, List<KvCacheEvent> events) {
            assertThat(pod).isEqualTo(POD);
            for (KvCacheEvent e : events) {
                index.add("apply " + ((BlockRemoved) e).blockHashes().getFirst().asUint64());
            }
        }

        @Override
        public void clear(String pod) {
            assertThat(pod).isEqualTo(POD);
            index.add("clear");
        }
    };

    /** A publisher's replay buffer: what it kept, and how it answers. */
    private static final class FakeReplay implements Replayer {
        final NavigableMap<Long, byte[]> kept = new TreeMap<>();
        final List<Long> asked = new ArrayList<>();
        boolean reachable = true;

        void keep(long... seqs) {
            for (long s : seqs) {
                kept.put(s, batch(s));
            }
        }

        /** What a restarted publisher's buffer holds. */
        void keepRestarted(long... seqs) {
            for (long s : seqs) {
                kept.put(s, restartedBatch(s));
            }
        }

        @Override
        public boolean replay(long from, Batches batches) {
            asked.add(from);
            if (!reachable) {
                return false;
            }
            kept.tailMap(from, true).forEach(batches::take);
            return true;
        }
    }

    private final FakeReplay replay = new FakeReplay();

    private static byte[] batch(long seq) {
        return batch(seq, 1.0);
    }

    /** A batch of a publisher started later. */
    private static byte[] restartedBatch(long seq) {
        return batch(seq, 2.0);
    }

    private static byte[] batch(long seq, double ts) {
        return ENCODER.encode(new KvEventBatch(ts, List.of(BlockRemoved.gpu(EventBlockHash.ofUint64(seq))), 0));
    }

    private PublisherStream withReplay() {
        return new PublisherStream(POD, replay, sink, observer);
    }

    private PublisherStream withoutReplay() {
        return new PublisherStream(POD, null, sink, observer);
    }

    private static void live(PublisherStream s, long... seqs) {
        for (long seq : seqs) {
            s.accept(seq, batch(seq));
        }
    }

    /** Live batches of the restarted publisher. */
    private static void restarted(PublisherStream s, long... seqs) {
        for (long seq : seqs) {
            s.accept(seq, restartedBatch(seq));
        }
    }

    @Test
    void batchesInSequenceAreAppliedInOrder() {
        PublisherStream s = withReplay();
        live(s, 0, 1, 2, 3);
        assertThat(index).containsExactly("apply 0", "apply 1", "apply 2", "apply 3");
        assertThat(replay.asked).isEmpty();
        assertThat(observer.count("batch")).isEqualTo(4);
        assertThat(observer.lines).noneMatch(l -> l.startsWith("gap") || l.startsWith("lost") || l.startsWith("restart"));
    }

    @Test
    void withoutReplayTheFirstMessageSetsTheExpectation() {
        PublisherStream s = withoutReplay();
        live(s, 7, 8, 9);
        assertThat(index).containsExactly("apply 7", "apply 8", "apply 9");
        assertThat(observer.lines).noneMatch(l -> l.startsWith("gap") || l.startsWith("lost"));
    }

    @Test
    void aLateJoinerFillsTheStartFromTheReplayBuffer() {
        replay.keep(0, 1, 2, 3);
        PublisherStream s = withReplay();
        live(s, 3, 4);
        assertThat(replay.asked).containsExactly(0L);
        assertThat(index).containsExactly("apply 0", "apply 1", "apply 2", "apply 3", "apply 4");
        assertThat(observer.lines).contains("replay pod-a complete").noneMatch(l -> l.startsWith("lost"));
    }

    @Test
    void aLateJoinerWhosePublisherKeptOnlyTheTailStartsThereWithoutDroppingAnything() {
        replay.keep(5, 6);
        PublisherStream s = withReplay();
        live(s, 6, 7);
        assertThat(index).containsExactly("apply 5", "apply 6", "apply 7");
        assertThat(observer.lines).noneMatch(l -> l.startsWith("lost") || l.startsWith("gap"));
    }

    @Test
    void aGapIsFilledByReplayAndNothingIsDropped() {
        replay.keep(0, 1, 2, 3, 4);
        PublisherStream s = withReplay();
        live(s, 0, 1, 4, 5);
        assertThat(replay.asked).containsExactly(2L);
        assertThat(index).containsExactly("apply 0", "apply 1", "apply 2", "apply 3", "apply 4", "apply 5");
        assertThat(observer.lines).contains("gap pod-a 2", "replay pod-a complete")
                .noneMatch(l -> l.startsWith("lost") || l.startsWith("restart"));
    }

    @Test
    void liveBatchesAReplayAlreadyDeliveredAreSkippedNotTakenForARestart() {
        replay.keep(0, 1, 2, 3, 4, 5, 6);
        PublisherStream s = withReplay();
        live(s, 0, 3, 4, 5, 6, 7);
        assertThat(index).containsExactly("apply 0", "apply 1", "apply 2", "apply 3", "apply 4", "apply 5", "apply 6",
                "apply 7");
        assertThat(observer.lines).noneMatch(l -> l.startsWith("restart") || l.startsWith("lost"));
        assertThat(observer.count("batch")).isEqualTo(8);
    }

    @Test
    void aGapWithoutReplayDropsThePodsEntriesBeforeTheNextBatch() {
        PublisherStream s = withoutReplay();
        live(s, 0, 1, 4, 5);
        assertThat(index).containsExactly("apply 0", "apply 1", "clear", "apply 4", "apply 5");
        assertThat(observer.lines).contains("gap pod-a 2", "lost pod-a 2");
    }

    @Test
    void aReplaySocketThatDoesNotAnswerMeansTheGapIsLost() {
        replay.reachable = false;
        PublisherStream s = withReplay();
        live(s, 0, 3);
        assertThat(replay.asked).containsExactly(1L);
        assertThat(index).containsExactly("apply 0", "clear", "apply 3");
        assertThat(observer.lines).contains("replay pod-a failed", "lost pod-a 2");
    }

    @Test
    void aReplayBufferThatNoLongerReachesBackLosesOnlyWhatItLacks() {
        replay.keep(3, 4, 5);
        PublisherStream s = withReplay();
        live(s, 0, 1, 5);
        assertThat(index).containsExactly("apply 0", "apply 1", "clear", "apply 3", "apply 4", "apply 5");
        assertThat(observer.lines).contains("lost pod-a 1");
    }

    @Test
    void aSequenceThatGoesBackIsARestartAndDropsEverything() {
        PublisherStream s = withoutReplay();
        live(s, 0, 1, 2);
        restarted(s, 0, 1);
        assertThat(index).containsExactly("apply 0", "apply 1", "apply 2", "clear", "apply 0", "apply 1");
        assertThat(observer.lines).contains("restart pod-a").noneMatch(l -> l.startsWith("lost"));
    }

    @Test
    void theSameSequenceWithOtherContentIsARestart() {
        PublisherStream s = withoutReplay();
        live(s, 3);
        restarted(s, 3);
        assertThat(index).containsExactly("apply 3", "clear", "apply 3");
        assertThat(observer.count("restart")).isEqualTo(1);
        assertThat(observer.lines).contains("lost pod-a 3"); // the new publisher's 0, 1 and 2 were missed
    }

    @Test
    void theSameBatchTwiceIsTakenOnce() {
        PublisherStream s = withoutReplay();
        live(s, 0, 1, 1, 2, 0);
        assertThat(index).containsExactly("apply 0", "apply 1", "apply 2");
        assertThat(observer.lines).noneMatch(l -> l.startsWith("restart") || l.startsWith("lost")
                || l.startsWith("skipped"));
    }

    @Test
    void aRestartSeenLateIsFilledFromTheNewPublishersReplayBuffer() {
        PublisherStream s = withReplay();
        live(s, 0, 1, 2, 3);
        replay.kept.clear();
        replay.keepRestarted(0, 1, 2); // the restarted engine's own buffer
        restarted(s, 2);
        assertThat(replay.asked).containsExactly(0L);
        assertThat(index).containsExactly("apply 0", "apply 1", "apply 2", "apply 3", "clear", "apply 0", "apply 1",
                "apply 2");
        assertThat(observer.lines).contains("restart pod-a").noneMatch(l -> l.startsWith("lost"));
    }

    @Test
    void aRestartSeenLateWithoutReplayLosesTheNewPublishersStart() {
        PublisherStream s = withoutReplay();
        live(s, 5, 6);
        restarted(s, 2);
        assertThat(index).containsExactly("apply 5", "apply 6", "clear", "apply 2");
        assertThat(observer.lines).contains("restart pod-a", "lost pod-a 2");
    }

    @Test
    void aBatchOvertakenByTheNextIsFilledByReplayAndNotAppliedAgainWhenItArrives() {
        replay.keep(0, 1, 2, 3, 4, 5);
        PublisherStream s = withReplay();
        live(s, 0, 1, 3, 2, 4, 5);
        assertThat(replay.asked).containsExactly(2L);
        assertThat(index).containsExactly("apply 0", "apply 1", "apply 2", "apply 3", "apply 4", "apply 5");
        assertThat(observer.lines).noneMatch(l -> l.startsWith("restart") || l.startsWith("lost")
                || l.startsWith("skipped"));
    }

    @Test
    void withoutReplayABatchGivenUpForLostThatArrivesLateIsSkippedAndUndoesNothing() {
        PublisherStream s = withoutReplay();
        live(s, 0, 1, 3, 4, 2, 5);
        assertThat(index).containsExactly("apply 0", "apply 1", "clear", "apply 3", "apply 4", "apply 5");
        assertThat(observer.lines).contains("lost pod-a 1", "skipped " + PublisherStream.OUT_OF_ORDER + " 1")
                .noneMatch(l -> l.startsWith("restart"));
    }

    @Test
    void aLateBatchFromBeforeWhatTheWindowRemembersIsARestart() {
        PublisherStream s = withoutReplay();
        for (long seq = 0; seq < PublisherStream.WINDOW + 10; seq++) {
            live(s, seq);
        }
        index.clear();
        live(s, 5);
        assertThat(index).containsExactly("clear", "apply 5");
        assertThat(observer.count("restart")).isEqualTo(1);
    }

    @Test
    void aLostConnectionDropsThePodsEntriesAndTheNextBatchStartsTheStreamAgain() {
        PublisherStream s = withReplay();
        live(s, 0, 1, 2);
        s.connectionLost();
        // The restarted engine published 0..5 before the subscriber was back: past the old stream's sequence.
        replay.kept.clear();
        replay.keepRestarted(0, 1, 2, 3, 4, 5);
        restarted(s, 5, 6);
        assertThat(index).containsExactly("apply 0", "apply 1", "apply 2", "clear", "apply 0", "apply 1", "apply 2",
                "apply 3", "apply 4", "apply 5", "apply 6");
        assertThat(replay.asked).containsExactly(0L);
        assertThat(observer.count("restart")).isEqualTo(1);
        assertThat(observer.lines).noneMatch(l -> l.startsWith("lost") || l.startsWith("gap"));
    }

    @Test
    void aConnectionLostBeforeAnyBatchChangesNothing() {
        PublisherStream s = withoutReplay();
        s.connectionLost();
        live(s, 0);
        s.connectionLost();
        s.connectionLost();
        live(s, 0);
        assertThat(index).containsExactly("apply 0", "clear", "apply 0");
        assertThat(observer.count("restart")).isEqualTo(1);
    }

    @Test
    void aMalformedPayloadIsCountedAndSkippedAndUsesUpItsSequenceNumber() {
        PublisherStream s = withoutReplay();
        live(s, 0);
        s.accept(1, new byte[]{(byte) 0xc1, 1, 2});
        s.accept(2, new byte[0]);
        live(s, 3);
        assertThat(index).containsExactly("apply 0", "apply 3");
        assertThat(observer.count("malformed pod-a")).isEqualTo(2);
        assertThat(observer.lines).noneMatch(l -> l.startsWith("gap") || l.startsWith("lost"));
    }

    @Test
    void aSequenceBeyondTwoToTheSixtyThreeIsMalformed() {
        PublisherStream s = withoutReplay();
        live(s, 0);
        s.accept(-1, batch(9));
        live(s, 1);
        assertThat(index).containsExactly("apply 0", "apply 1");
        assertThat(observer.count("malformed")).isEqualTo(1);
    }
}
