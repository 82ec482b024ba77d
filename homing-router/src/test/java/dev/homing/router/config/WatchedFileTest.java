package dev.homing.router.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.core.config.ConfigException;
import dev.homing.protocol.fixtures.LogCapture;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WatchedFileTest {

    private static final System.Logger LOG = System.getLogger(WatchedFileTest.class.getName());

    @TempDir
    Path dir;

    private final LogCapture log = LogCapture.of(WatchedFileTest.class);
    private final List<String> applied = new ArrayList<>();

    @AfterEach
    void stopListening() {
        log.close();
    }

    /** Uses any text but one that starts with "broken". */
    private ReloadOutcome poll(WatchedFile watched) {
        return watched.poll(text -> {
            if (text.startsWith("broken")) {
                throw new ConfigException(watched.file().toString(), 1, "cannot use it");
            }
            applied.add(text);
        });
    }

    private WatchedFile watch(Path file, String text) throws Exception {
        Files.writeString(file, text);
        return new WatchedFile(file, text, "things", LOG);
    }

    @Test
    void aChangeIsUsedOnlyOnceTwoReadsAgreeOnIt() throws Exception {
        Path file = dir.resolve("f.yaml");
        WatchedFile watched = watch(file, "one");
        assertThat(poll(watched)).isEqualTo(ReloadOutcome.UNCHANGED);

        Files.writeString(file, "two, half"); // caught while being written
        assertThat(poll(watched)).isEqualTo(ReloadOutcome.SETTLING);
        Files.writeString(file, "two, whole");
        assertThat(poll(watched)).as("a read that disagrees with the last starts over").isEqualTo(ReloadOutcome.SETTLING);
        assertThat(applied).isEmpty();
        assertThat(poll(watched)).isEqualTo(ReloadOutcome.APPLIED);
        assertThat(poll(watched)).isEqualTo(ReloadOutcome.UNCHANGED);
        assertThat(applied).containsExactly("two, whole");

        Files.writeString(file, "three");
        assertThat(poll(watched)).isEqualTo(ReloadOutcome.SETTLING);
        Files.writeString(file, "two, whole");
        assertThat(poll(watched)).as("changed back before it settled").isEqualTo(ReloadOutcome.UNCHANGED);
        assertThat(poll(watched)).isEqualTo(ReloadOutcome.UNCHANGED);
        assertThat(applied).containsExactly("two, whole");
    }

    @Test
    void aRefusedChangeIsNotTriedAgainAndEachFailureIsLoggedOnce() throws Exception {
        Path file = dir.resolve("f.yaml");
        WatchedFile watched = watch(file, "one");

        Files.writeString(file, "broken");
        assertThat(poll(watched)).isEqualTo(ReloadOutcome.SETTLING);
        assertThat(poll(watched)).isEqualTo(ReloadOutcome.REFUSED);
        assertThat(poll(watched)).isEqualTo(ReloadOutcome.UNCHANGED);
        assertThat(poll(watched)).isEqualTo(ReloadOutcome.UNCHANGED);
        assertThat(log.warnings()).containsExactly("things reload refused, running things kept: " + file
                + ":1: cannot use it");
        Files.writeString(file, "broken again");
        poll(watched);
        assertThat(poll(watched)).isEqualTo(ReloadOutcome.REFUSED);
        assertThat(log.warnings()).as("the same message is not logged twice in a row").hasSize(1);

        Files.delete(file);
        assertThat(poll(watched)).isEqualTo(ReloadOutcome.SETTLING);
        assertThat(poll(watched)).isEqualTo(ReloadOutcome.REFUSED);
        for (int i = 0; i < 5; i++) {
            assertThat(poll(watched)).as("a file still missing is no news").isEqualTo(ReloadOutcome.UNCHANGED);
        }
        assertThat(log.warnings()).hasSize(2);
        assertThat(log.warnings().get(1)).startsWith("things reload refused, running things kept: " + file
                + ": cannot be read: ");

        Files.writeString(file, "broken");
        poll(watched);
        assertThat(poll(watched)).isEqualTo(ReloadOutcome.REFUSED);
        assertThat(log.warnings()).hasSize(3);

        Files.writeString(file, "fixed");
        poll(watched);
        assertThat(poll(watched)).isEqualTo(ReloadOutcome.APPLIED);
        Files.writeString(file, "broken");
        poll(watched);
        assertThat(poll(watched)).isEqualTo(ReloadOutcome.REFUSED);
        assertThat(log.warnings()).as("after a success, a failure is news again").hasSize(4);
        assertThat(applied).containsExactly("fixed");
    }
}
