package dev.homing.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.bench.result.BenchReport;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTML report as a browser sees it: Debian's headless Chromium loads the file with no network, and the DOM it
 * builds has every chart, each named by its {@code <title>} with a line per policy; nothing points off the page; the
 * screenshot shows the policies' colours.
 */
class ChromiumIT {

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final List<String> POLICIES = List.of("homing", "round-robin", "llm-d-precise");
    private static final String WORKLOAD = "chat <i>x</i> & co";
    private static final long TIMEOUT_SECONDS = 90;

    @TempDir
    Path tmp;

    @Test
    void chromiumRendersEveryChartOffline() throws Exception {
        BenchReport report = SampleReports.report(WORKLOAD, POLICIES, true);
        Path html = ReportFiles.write(report, tmp.resolve("out"), true).get(1);

        String dom = chromium("--dump-dom", html.toUri().toString()).stdout;

        // 2 workloads x (3 TTFT + throughput + hit rate + one load chart per policy)
        List<String> svgs = elements(dom, "svg");
        assertThat(svgs).hasSize(2 * (5 + POLICIES.size()));
        for (String svg : svgs) {
            assertThat(svg).as("each chart is named by a leading <title>")
                    .containsPattern("^<svg[^>]*><title[^>]*>[^<]+</title>");
        }
        List<String> byLoad = svgs.stream().filter(s -> s.startsWith("<svg class=\"chart by-load\"")).toList();
        assertThat(byLoad).hasSize(2 * 4);
        for (String chart : byLoad) {
            assertThat(attributes(chart, "polyline", "data-series")).as("one line per policy")
                    .containsExactlyElementsOf(POLICIES);
        }
        assertThat(String.join("", byLoad)).contains("TTFT p50 against offered QPS", "TTFT p90 against offered QPS",
                "TTFT p99 against offered QPS", "Output throughput against offered QPS",
                "against achieved requests/s (closed loop)");
        List<String> hitRate = svgs.stream().filter(s -> s.startsWith("<svg class=\"chart hit-rate\"")).toList();
        assertThat(hitRate).hasSize(2).allSatisfy(chart -> {
            assertThat(attributes(chart, "rect", "data-series")).containsExactlyElementsOf(POLICIES);
        });
        assertThat(elements(hitRate.getFirst(), "line").stream().filter(l -> l.contains("class=\"bound\""))).hasSize(1);
        List<String> podLoad = svgs.stream().filter(s -> s.startsWith("<svg class=\"chart pod-load\"")).toList();
        assertThat(podLoad).hasSize(2 * POLICIES.size()).allSatisfy(chart -> assertThat(
                attributes(chart, "polyline", "data-series")).containsExactly("pod-0", "pod-1", "pod-2"));

        // the workload's name stayed text: the browser made no <i> element of it
        assertThat(dom).contains("chat &lt;i&gt;x&lt;/i&gt; &amp; co").doesNotContain("<i>");
        assertThat(dom).doesNotContainPattern("(?i)\\b(src|href)\\s*=")
                .doesNotContainPattern("(?i)url\\s*\\(")
                .doesNotContainPattern("(?i)@import")
                .doesNotContainPattern("(?i)https?://")
                .doesNotContainPattern("(?i)<script");

        Path png = tmp.resolve("shot.png");
        chromium("--screenshot=" + png, "--window-size=1400,1600", html.toUri().toString());
        assertThat(png).exists();
        BufferedImage image = ImageIO.read(png.toFile());
        assertThat(image).as("a PNG Java can read").isNotNull();
        Set<Integer> colours = new HashSet<>();
        for (int y = 0; y < image.getHeight(); y += 2) {
            for (int x = 0; x < image.getWidth(); x += 2) {
                colours.add(image.getRGB(x, y) & 0xffffff);
            }
        }
        assertThat(colours).as("not blank").hasSizeGreaterThan(16);
        for (int i = 0; i < POLICIES.size(); i++) {
            int rgb = Integer.parseInt(Palette.colour(i).substring(1), 16);
            assertThat(hasColour(image, rgb)).as("%s's colour %s is on screen", POLICIES.get(i), Palette.colour(i))
                    .isTrue();
        }
    }

    private static boolean hasColour(BufferedImage image, int rgb) {
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                int p = image.getRGB(x, y);
                // a little slack per channel, for any colour management between the SVG and the PNG
                if (near(p >> 16, rgb >> 16) && near(p >> 8, rgb >> 8) && near(p, rgb)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean near(int a, int b) {
        return Math.abs((a & 0xff) - (b & 0xff)) <= 3;
    }

    /** The outer markup of every element with this tag (not nested in itself). */
    private static List<String> elements(String markup, String tag) {
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile("<" + tag + "\\b.*?(</" + tag + ">|/>)", Pattern.DOTALL).matcher(markup);
        while (m.find()) {
            out.add(m.group());
        }
        return out;
    }

    private static List<String> attributes(String markup, String tag, String attribute) {
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile("<" + tag + "\\b[^>]*\\b" + attribute + "=\"([^\"]*)\"").matcher(markup);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    private record Output(String stdout, String stderr) {
    }

    private Output chromium(String... args) throws IOException, InterruptedException {
        assertThat(Files.isExecutable(CHROMIUM))
                .as("headless Chromium at %s: install Debian's package 'chromium' (./homing test does, as root)",
                        CHROMIUM)
                .isTrue();
        List<String> command = new ArrayList<>(List.of(CHROMIUM.toString(), "--headless", "--no-sandbox",
                "--disable-gpu", "--disable-dev-shm-usage", "--disable-crash-reporter", "--disable-breakpad",
                "--no-first-run", "--no-default-browser-check",
                "--hide-scrollbars", "--force-device-scale-factor=1", "--user-data-dir=" + tmp.resolve("profile")));
        command.addAll(List.of(args));
        Path out = Files.createTempFile(tmp, "chromium", ".out");
        Path err = Files.createTempFile(tmp, "chromium", ".err");
        Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            throw new AssertionError("chromium did not finish in " + TIMEOUT_SECONDS + " s: " + command);
        }
        Output output = new Output(Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
        assertThat(p.exitValue()).as("chromium exit code; stderr:%n%s", output.stderr).isZero();
        return output;
    }
}
