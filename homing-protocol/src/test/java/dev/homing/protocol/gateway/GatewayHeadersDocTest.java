package dev.homing.protocol.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** docs/CONFIGURATION.md lists exactly the headers that stop at the router, as the code has them. */
class GatewayHeadersDocTest {

    private static final String DOC = "docs/CONFIGURATION.md";
    private static final String HEADING = "**Headers only the router sets.**";
    private static final String STEERING = "The headers that steer the picker";
    private static final Pattern HEADER = Pattern.compile("`(x-[a-z0-9-]+)`");

    @Test
    void theConfigurationPageListsEveryHeaderThatStopsAtTheRouter() throws Exception {
        String doc = Files.readString(doc());
        int start = doc.indexOf(HEADING);
        assertThat(start).as(DOC + " has the paragraph " + HEADING).isNotNegative();
        int end = doc.indexOf("\n\n", start);
        String paragraph = doc.substring(start, end < 0 ? doc.length() : end);
        int steering = paragraph.indexOf(STEERING);
        assertThat(steering).as("the paragraph goes on with: " + STEERING).isPositive();
        assertThat(headers(paragraph.substring(0, steering))).as("router-owned")
                .isEqualTo(new TreeSet<>(GatewayHeaders.ROUTER_OWNED));
        assertThat(headers(paragraph.substring(steering))).as("picker control")
                .isEqualTo(new TreeSet<>(GatewayHeaders.PICKER_CONTROL));
    }

    private static Set<String> headers(String text) {
        Set<String> out = new TreeSet<>();
        for (Matcher m = HEADER.matcher(text); m.find(); ) {
            out.add(m.group(1));
        }
        return out;
    }

    private static Path doc() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve(DOC))) {
                return p.resolve(DOC);
            }
        }
        throw new AssertionError("no " + DOC + " above " + Path.of("").toAbsolutePath());
    }
}
