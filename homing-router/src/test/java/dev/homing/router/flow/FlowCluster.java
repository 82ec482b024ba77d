package dev.homing.router.flow;

import dev.homing.bench.extproc.ExtProcCall;
import dev.homing.router.fixtures.TempFiles;
import dev.homing.router.fixtures.TestCluster;
import io.grpc.ManagedChannel;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * One simulated pod behind a router running {@code config} with {@code objectives} (files written for it), with an
 * ext_proc port and a channel to it when asked: the cluster the admission and flow-control tests share.
 */
final class FlowCluster implements AutoCloseable {

    final TestCluster cluster;
    /** A channel to the router's ext_proc port, or null without one. */
    final ManagedChannel channel;
    private final TempFiles files;

    private FlowCluster(TempFiles files, TestCluster cluster, ManagedChannel channel) {
        this.files = files;
        this.cluster = cluster;
        this.channel = channel;
    }

    static FlowCluster start(String name, String config, String objectives, boolean extProc) throws IOException {
        TempFiles files = TempFiles.create(name);
        Path configFile = files.write("epp.yaml", config);
        Path objectivesFile = files.write("objectives.yaml", objectives);
        TestCluster cluster = TestCluster.start(1, b -> b, o -> o.with(x -> {
            x.configFile = configFile;
            x.objectivesFile = objectivesFile;
            if (extProc) {
                x.extProcPort = 0;
            }
        }));
        return new FlowCluster(files, cluster,
                extProc ? ExtProcCall.channel(cluster.router().extProcPort(), true) : null);
    }

    @Override
    public void close() throws InterruptedException {
        if (channel != null) {
            channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }
        cluster.close();
        files.close();
    }
}
