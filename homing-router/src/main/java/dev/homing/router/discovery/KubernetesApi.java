package dev.homing.router.discovery;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The Kubernetes API server the router discovers pods on and elects its leader through: a kubeconfig
 * ({@code KUBECONFIG}, else {@code ~/.kube/config}) or, in a pod, the in-cluster service account; fabric8 reads both,
 * over the JDK's HTTP client. When none is there the router refuses to start rather than wait for an API server it
 * would never find.
 */
public final class KubernetesApi implements AutoCloseable {

    private final KubernetesClient client;

    private KubernetesApi(KubernetesClient client) {
        this.client = client;
    }

    /**
     * @param kubeconfig a kubeconfig file to use instead of looking (tests point this at their API server), or null
     * @throws IllegalArgumentException when there is neither a kubeconfig nor an in-cluster service account
     */
    public static KubernetesApi connect(Path kubeconfig) {
        Config config;
        if (kubeconfig != null) {
            if (!Files.isRegularFile(kubeconfig)) {
                throw new IllegalArgumentException("kubeconfig " + kubeconfig + " is not a file");
            }
            config = Config.fromKubeconfig(kubeconfig.toFile());
        } else {
            if (!configured()) {
                throw new IllegalArgumentException("no Kubernetes API server to discover the pods on: set KUBECONFIG,"
                        + " write ~/.kube/config, or run in a pod (in-cluster service account); or give --endpoints");
            }
            config = Config.autoConfigure(null);
        }
        // One HTTP retry, not fabric8's ten with exponential backoff: the informers relist and the election retries
        // on their own, and ten retries would hide an API server that is away for over a minute, with no word logged.
        config.setRequestRetryBackoffLimit(1);
        return new KubernetesApi(new KubernetesClientBuilder().withConfig(config).build());
    }

    /** A kubeconfig file that exists, an in-cluster service, or a master named outright. */
    private static boolean configured() {
        for (String name : Config.getKubeconfigFilenames()) {
            if (new File(name).isFile()) {
                return true;
            }
        }
        return System.getenv("KUBERNETES_SERVICE_HOST") != null || System.getenv("KUBERNETES_MASTER") != null
                || System.getProperty(Config.KUBERNETES_MASTER_SYSTEM_PROPERTY) != null;
    }

    /**
     * Another client of the same API server whose every request, connection included, gives up after
     * {@code timeout} and is not retried: for the leader election, whose leader must learn it cannot renew while it
     * may still stop in time (fabric8's defaults, 10 s to connect and 10 s to answer, would outlast the lease).
     */
    public KubernetesApi withTimeouts(Duration timeout) {
        Config config = new ConfigBuilder(client.getConfiguration()).build();
        int millis = (int) Math.max(1, timeout.toMillis());
        config.setConnectionTimeout(millis);
        config.setRequestTimeout(millis);
        config.setRequestRetryBackoffLimit(0);
        return new KubernetesApi(new KubernetesClientBuilder().withConfig(config).build());
    }

    public KubernetesClient client() {
        return client;
    }

    /** The API server's URL, for the log. */
    public String url() {
        return client.getConfiguration().getMasterUrl();
    }

    @Override
    public void close() {
        client.close();
    }
}
