package dev.homing.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** {@code homing demo} proves both promises and says so with its exit code. */
class DemoCommandIT {

    @Test
    void bothPromisesHold() {
        PrintStream original = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        int exit;
        try {
            System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
            exit = Main.run("demo", "--seed", "11");
        } finally {
            System.setOut(original);
        }
        String out = captured.toString(StandardCharsets.UTF_8);
        System.out.println(out);
        assertThat(exit).isZero();
        assertThat(out).contains("held: all six landed on qwen2-5-0-5b-instruct-")
                .contains("held: every pod worked, evenly")
                .contains("Both promises held.");
    }
}
