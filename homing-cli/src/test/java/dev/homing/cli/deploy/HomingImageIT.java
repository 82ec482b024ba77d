package dev.homing.cli.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * The image without Docker (absent here): the runtime layout deploy/image/Dockerfile makes, built from the Dockerfile's
 * own COPY, ENV, WORKDIR and ENTRYPOINT lines into a directory that stands for the image's root, then started as the
 * image would start it (the JDK running the tests stands for the base image's java on PATH). And homing-cli's Jib
 * profile, which makes the same image, is checked to say what the Dockerfile says.
 */
class HomingImageIT {

    static Dockerfile dockerfile;

    @BeforeAll
    static void read() throws IOException {
        dockerfile = Dockerfile.parse(Files.readString(DeployFiles.deploy().resolve("image/Dockerfile")));
    }

    @Test
    void theImageStartsAndPrintsItsVersion(@TempDir Path root) throws Exception {
        Run run = start(root, List.of("--version"));
        assertThat(run.exit).as(run.output).isZero();
        assertThat(run.output.strip()).isEqualTo("homing " + projectVersion());
    }

    @Test
    void withoutArgumentsItPrintsHomingsHelp(@TempDir Path root) throws Exception {
        Run run = start(root, dockerfile.cmd);
        assertThat(run.exit).as(run.output).isZero();
        assertThat(run.output).contains("Usage: homing", "serve");
    }

    @Test
    void flagsFirstAsLlmDsChartPassesThemAreHomingServes(@TempDir Path root) throws Exception {
        // llm-d's chart gives arguments only, flags first (--pool-name P ...): the entrypoint runs them as `serve`.
        Run run = start(root, List.of("--grpc-port", "9002", "--help"));
        assertThat(run.exit).as(run.output).isZero();
        assertThat(run.output).contains("Usage: homing serve");
        Run config = start(root, List.of("config", "default"));
        assertThat(config.exit).as(config.output).isZero();
        assertThat(config.output).contains("kind: EndpointPickerConfig");
    }

    @Test
    void inTheImageServeBindsThePodsAddressesUnlessTold(@TempDir Path root) throws Exception {
        // The chart names no address and Homing binds loopback by default: the image's environment makes serve's
        // default all of the pod's addresses (else the kubelet's probes, the gateway and Prometheus could not reach it).
        Run run = start(root, List.of("--pool-name", "p", "--help"));
        assertThat(run.exit).as(run.output).isZero();
        assertThat(run.output.replaceAll("\\s+", " "))
                .contains("--host=<host> Address the API and the gRPC ports (ext_proc, health) bind (default: "
                        + "HOMING_HOST from the environment, else auto: 0.0.0.0 with Kubernetes discovery")
                .contains("127.0.0.1 otherwise; now 0.0.0.0)", "HOMING_ADMIN_HOST");
        assertThat(run.output.replaceAll("\\s+", " ").split("now 0\\.0\\.0\\.0", -1)).as("both --host and "
                + "--admin-host").hasSize(3);
    }

    @Test
    void llmDsChartArgumentsRunAsServe(@TempDir Path root, @TempDir Path bin) throws Exception {
        // A java that prints the command line it is given: what the entrypoint hands the JVM, without running it.
        Path java = bin.resolve("java");
        Files.writeString(java, "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        // The arguments of llm-d's chart (config/charts/inferencepool/templates/epp-deployment.yaml at
        // kubernetes-sigs/gateway-api-inference-extension 9d1514a3607eefbda6bcf8849aaf3654dba7f207), two replicas.
        List<String> chart = List.of("--pool-name", "vllm-qwen", "--pool-namespace", "llm", "--zap-encoder", "json",
                "--config-file", "/config/default-plugins.yaml", "--ha-enable-leader-election", "--tracing=false",
                "--metrics-endpoint-auth=false");
        String jar = root.resolve("app/homing.jar").toString();
        List<String> jvm = List.of("--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow", "-jar",
                jar);
        assertThat(start(root, chart, bin).output.lines().toList()).isEqualTo(concat(jvm, List.of("serve"), chart));
        assertThat(start(root, List.of("sim", "--port", "8001"), bin).output.lines().toList())
                .isEqualTo(concat(jvm, List.of("sim", "--port", "8001")));
    }

    @SafeVarargs
    private static List<String> concat(List<String>... parts) {
        List<String> out = new ArrayList<>();
        for (List<String> p : parts) {
            out.addAll(p);
        }
        return out;
    }

    @Test
    void theJibProfileMakesTheSameImage() throws Exception {
        Document pom = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(DeployFiles.repoRoot().resolve("homing-cli/pom.xml").toFile());
        Element jib = null;
        NodeList plugins = pom.getElementsByTagName("plugin");
        for (int i = 0; i < plugins.getLength(); i++) {
            Element p = (Element) plugins.item(i);
            if (text(p, "artifactId").equals("jib-maven-plugin")) {
                jib = (Element) p.getElementsByTagName("configuration").item(0);
            }
        }
        assertThat(jib).as("homing-cli/pom.xml's jib profile").isNotNull();
        Element container = child(jib, "container");
        assertThat(text(child(jib, "from"), "image")).isEqualTo(dockerfile.from);
        assertThat(texts(child(container, "entrypoint"), "arg")).isEqualTo(dockerfile.entrypoint);
        assertThat(texts(child(container, "args"), "arg")).isEqualTo(dockerfile.cmd);
        assertThat(text(container, "user")).isEqualTo(dockerfile.user);
        assertThat(text(container, "workingDirectory")).isEqualTo(dockerfile.workdir);
        assertThat(texts(child(container, "ports"), "port")).isEqualTo(dockerfile.expose);
        Map<String, String> env = new LinkedHashMap<>();
        for (Node n = child(container, "environment").getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e) {
                env.put(e.getTagName(), e.getTextContent().strip());
            }
        }
        assertThat(env).isEqualTo(dockerfile.env);
        // The files: each COPY's destination with the same mode, from the same source.
        Map<String, String> modes = new LinkedHashMap<>();
        NodeList perms = jib.getElementsByTagName("permission");
        for (int i = 0; i < perms.getLength(); i++) {
            modes.put(text((Element) perms.item(i), "file"), text((Element) perms.item(i), "mode"));
        }
        Map<String, String> sources = new LinkedHashMap<>();
        NodeList paths = child(jib, "extraDirectories").getElementsByTagName("path");
        for (int i = 0; i < paths.getLength(); i++) {
            Element p = (Element) paths.item(i);
            String from = text(p, "from").replace("${project.build.directory}", "homing-cli/target")
                    .replace("${project.basedir}/../", "");
            sources.put(text(p, "into") + "/" + text(p, "includes"), from + "/" + text(p, "includes"));
        }
        Map<String, String> dockerModes = new LinkedHashMap<>();
        Map<String, String> dockerSources = new LinkedHashMap<>();
        dockerfile.copies.forEach(c -> {
            dockerModes.put(c.dest, c.mode);
            dockerSources.put(c.dest, c.src);
        });
        assertThat(modes).isEqualTo(dockerModes);
        assertThat(sources).isEqualTo(dockerSources);
    }

    /** Lays out the image's files under {@code root} as the Dockerfile's COPYs do, and runs its entrypoint there. */
    private static Run start(Path root, List<String> args) throws Exception {
        return start(root, args, Path.of(System.getProperty("java.home"), "bin"));
    }

    /** ... with {@code javaBin} standing for the base image's directory of java on PATH. */
    private static Run start(Path root, List<String> args, Path javaBin) throws Exception {
        Path repo = DeployFiles.repoRoot();
        for (Dockerfile.Copy c : dockerfile.copies) {
            Path src = repo.resolve(c.src);
            assertThat(src).as("COPY " + c.src + " (build the jar first: mvn package)").isRegularFile();
            Path dest = root.resolve(c.dest.substring(1));
            Files.createDirectories(dest.getParent());
            Files.copy(src, dest, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            Files.setPosixFilePermissions(dest, PosixFilePermissions.fromString(rwx(c.mode)));
        }
        List<String> command = new ArrayList<>();
        command.add(root.resolve(dockerfile.entrypoint.get(0).substring(1)).toString());
        command.addAll(dockerfile.entrypoint.subList(1, dockerfile.entrypoint.size()));
        command.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(command).directory(root.resolve(dockerfile.workdir.substring(1)).toFile())
                .redirectErrorStream(true);
        pb.environment().putAll(dockerfile.env);
        pb.environment().put("PATH", javaBin + ":/usr/bin:/bin");
        Process p = pb.start();
        p.getOutputStream().close();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(command + " did not end within 60 s:\n" + output);
        }
        return new Run(p.exitValue(), output);
    }

    private record Run(int exit, String output) {
    }

    private static String rwx(String octal) {
        StringBuilder b = new StringBuilder();
        for (char c : octal.substring(octal.length() - 3).toCharArray()) {
            int d = c - '0';
            b.append((d & 4) != 0 ? 'r' : '-').append((d & 2) != 0 ? 'w' : '-').append((d & 1) != 0 ? 'x' : '-');
        }
        return b.toString();
    }

    private static String projectVersion() throws Exception {
        Document pom = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(DeployFiles.repoRoot().resolve("homing-cli/pom.xml").toFile());
        return text(child(pom.getDocumentElement(), "parent"), "version");
    }

    private static Element child(Element parent, String tag) {
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && e.getTagName().equals(tag)) {
                return e;
            }
        }
        throw new AssertionError("no <" + tag + "> in <" + parent.getTagName() + ">");
    }

    private static String text(Element parent, String tag) {
        return child(parent, tag).getTextContent().strip();
    }

    private static List<String> texts(Element parent, String tag) {
        List<String> out = new ArrayList<>();
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && e.getTagName().equals(tag)) {
                out.add(e.getTextContent().strip());
            }
        }
        return out;
    }

    /** The instructions of deploy/image/Dockerfile this test reproduces. */
    record Dockerfile(String from, List<Copy> copies, Map<String, String> env, String workdir, String user,
                      List<String> expose, List<String> entrypoint, List<String> cmd) {

        record Copy(String mode, String src, String dest) {
        }

        private static final Pattern COPY = Pattern.compile("COPY\\s+--chmod=(\\d+)\\s+(\\S+)\\s+(\\S+)");

        static Dockerfile parse(String text) throws IOException {
            String from = null;
            String workdir = null;
            String user = null;
            List<Copy> copies = new ArrayList<>();
            Map<String, String> env = new LinkedHashMap<>();
            List<String> expose = new ArrayList<>();
            List<String> entrypoint = null;
            List<String> cmd = null;
            ObjectMapper json = new ObjectMapper();
            for (String line : text.replace("\\\n", " ").split("\n")) {
                String l = line.strip();
                if (l.isEmpty() || l.startsWith("#")) {
                    continue;
                }
                String word = l.split("\\s+", 2)[0];
                String rest = l.substring(word.length()).strip();
                switch (word) {
                    case "FROM" -> from = rest;
                    case "COPY" -> {
                        Matcher m = COPY.matcher(l);
                        if (!m.matches()) {
                            throw new AssertionError("a COPY this test cannot reproduce (give --chmod): " + l);
                        }
                        copies.add(new Copy(m.group(1), m.group(2), m.group(3)));
                    }
                    case "ENV" -> {
                        String[] kv = rest.split("=", 2);
                        env.put(kv[0], kv[1]);
                    }
                    case "WORKDIR" -> workdir = rest;
                    case "USER" -> user = rest;
                    case "EXPOSE" -> expose.addAll(List.of(rest.split("\\s+")));
                    case "ENTRYPOINT" -> entrypoint = List.of(json.readValue(rest, String[].class));
                    case "CMD" -> cmd = List.of(json.readValue(rest, String[].class));
                    case "RUN" -> { } // the user: USER's numeric id needs no passwd entry to run
                    default -> throw new AssertionError("an instruction this test does not reproduce: " + l);
                }
            }
            return new Dockerfile(from, copies, env, workdir, user, expose, entrypoint, cmd);
        }
    }
}
