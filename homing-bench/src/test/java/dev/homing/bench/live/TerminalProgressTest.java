package dev.homing.bench.live;

import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.bench.report.StatusLine;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class TerminalProgressTest {

    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    private final AtomicLong clock = new AtomicLong();

    private String written() {
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void drawsOneLineInPlaceAndEndsIt() {
        TerminalProgress p = new TerminalProgress(out, true, clock::get);
        p.started("random", 10);
        clock.set(1_000_000_000L);
        p.progress(6, 5, 1);
        clock.set(3_000_000_000L);
        p.finished(10, 10, 2);
        String s = written();
        assertThat(s).doesNotContain("\n".repeat(2)).endsWith("\n");
        assertThat(s.split("\r", -1)).hasSize(4); // start, progress, final line
        assertThat(s).contains("random [" + "#".repeat(15) + "-".repeat(15) + "] 5/10 done, 6 sent, 1 failed, 1 s");
        assertThat(s).contains("[" + "#".repeat(30) + "] 10/10 done, 10 sent, 2 failed, 3 s");
    }

    @Test
    void redrawsAtMostTenTimesASecondButNeverLosesTheFinalCounts() {
        TerminalProgress p = new TerminalProgress(out, true, clock::get);
        p.started("x", 100);
        for (int i = 1; i <= 50; i++) {
            clock.addAndGet(1_000_000L); // 1 ms apart: all within one redraw interval
            p.progress(i, i, 0);
        }
        assertThat(written().split("\r", -1)).hasSize(2); // only the start: every update came too soon after it
        clock.addAndGet(200_000_000L);
        p.progress(51, 40, 0); // counts arriving out of order never go backwards
        assertThat(written()).contains("50/100 done, 51 sent");
        p.finished(60, 60, 0);
        assertThat(written()).contains("60/100 done, 60 sent, 0 failed");
    }

    @Test
    void silentWithoutATerminal() {
        TerminalProgress p = new TerminalProgress(out, false, clock::get);
        p.started("x", 3);
        p.progress(1, 1, 0);
        p.finished(3, 3, 0);
        assertThat(written()).isEmpty();
        assertThat(p.enabled()).isFalse();
    }

    @Test
    void testsRunWithoutAConsoleSoTheStderrBarIsSilent() {
        // surefire's forked JVM has no terminal: exactly the case where the bar must stay off
        assertThat(TerminalProgress.stderr().enabled()).isEqualTo(StatusLine.terminalAttached());
        assertThat(StatusLine.terminalAttached()).isFalse();
    }
}
