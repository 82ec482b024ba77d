package dev.homing.cli;

import dev.homing.bench.soak.Fleet;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/** The soak's pods, each a {@link PodProcess} on a port of its own, as the soak's {@link Fleet}. */
final class PodFleet implements Fleet, AutoCloseable {

    private final List<PodProcess> pods;

    private PodFleet(List<PodProcess> pods) {
        this.pods = List.copyOf(pods);
    }

    /** Starts {@code ports.length} pods named pod-1, pod-2, ... at once, and waits until all serve. */
    static PodFleet start(Path dir, int[] ports, String model, long seed) throws IOException, InterruptedException {
        List<PodProcess> started = new ArrayList<>();
        try {
            for (int i = 0; i < ports.length; i++) {
                started.add(PodProcess.start(dir, "pod-" + (i + 1), ports[i], model, seed + i));
            }
            for (PodProcess p : started) {
                p.awaitServing(Duration.ofSeconds(120));
            }
            return new PodFleet(started);
        } catch (IOException | InterruptedException | RuntimeException e) {
            new PodFleet(started).close();
            throw e;
        }
    }

    /** {@code name=127.0.0.1:port,...}, as {@code homing serve --endpoints} takes it. */
    String endpoints() {
        return pods.stream().map(p -> p.name() + "=127.0.0.1:" + p.port()).collect(Collectors.joining(","));
    }

    List<Path> logs() {
        return pods.stream().map(PodProcess::log).toList();
    }

    @Override
    public List<String> names() {
        return pods.stream().map(PodProcess::name).toList();
    }

    @Override
    public void kill(int i) throws IOException, InterruptedException {
        pods.get(i).kill();
    }

    @Override
    public void restart(int i) throws IOException, InterruptedException {
        pods.get(i).restart();
    }

    @Override
    public void close() throws InterruptedException {
        for (PodProcess p : pods) {
            p.close();
        }
    }
}
