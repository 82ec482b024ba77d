package dev.homing.router.extproc;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.google.protobuf.util.JsonFormat;
import io.envoyproxy.envoy.config.bootstrap.v3.Bootstrap;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.extensions.filters.http.ext_proc.v3.ExternalProcessor;
import io.envoyproxy.envoy.extensions.filters.http.ext_proc.v3.ProcessingMode;
import io.envoyproxy.envoy.extensions.filters.http.router.v3.Router;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpFilter;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.UpstreamTlsContext;
import io.envoyproxy.envoy.extensions.upstreams.http.v3.HttpProtocolOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The Envoy configuration docs/EXT_PROC.md gives is one Envoy reads: its YAML block is parsed into Envoy's own
 * {@code Bootstrap} proto (strictly: an unknown field fails), with every {@code @type} resolved, and it configures
 * what the picker needs.
 */
class EnvoyBootstrapTest {

    private static final JsonFormat.TypeRegistry TYPES = JsonFormat.TypeRegistry.newBuilder()
            .add(HttpConnectionManager.getDescriptor())
            .add(ExternalProcessor.getDescriptor())
            .add(Router.getDescriptor())
            .add(UpstreamTlsContext.getDescriptor())
            .add(HttpProtocolOptions.getDescriptor())
            .build();

    static String bootstrapYaml() throws Exception {
        String doc = Files.readString(Path.of("..", "docs", "EXT_PROC.md"));
        Matcher m = Pattern.compile("```yaml\\n(static_resources:.*?)```", Pattern.DOTALL).matcher(doc);
        assertThat(m.find()).as("docs/EXT_PROC.md has the bootstrap block").isTrue();
        return m.group(1);
    }

    @Test
    void theDocumentedBootstrapParsesAsEnvoysProtoAndConfiguresThePickerAsItMustBe() throws Exception {
        Object tree = new ObjectMapper(new YAMLFactory()).readValue(bootstrapYaml(), Object.class);
        String json = new ObjectMapper().writeValueAsString(tree);
        Bootstrap.Builder b = Bootstrap.newBuilder();
        JsonFormat.parser().usingTypeRegistry(TYPES).merge(json, b);
        Bootstrap bootstrap = b.build();

        HttpConnectionManager hcm = bootstrap.getStaticResources().getListeners(0).getFilterChains(0).getFilters(0)
                .getTypedConfig().unpack(HttpConnectionManager.class);
        List<HttpFilter> filters = hcm.getHttpFiltersList();
        assertThat(filters).extracting(HttpFilter::getName)
                .containsExactly("envoy.filters.http.ext_proc", "envoy.filters.http.router");
        ExternalProcessor extProc = filters.getFirst().getTypedConfig().unpack(ExternalProcessor.class);
        ProcessingMode mode = extProc.getProcessingMode();
        assertThat(mode.getRequestBodyMode()).isEqualTo(ProcessingMode.BodySendMode.FULL_DUPLEX_STREAMED);
        assertThat(mode.getResponseBodyMode()).isEqualTo(ProcessingMode.BodySendMode.FULL_DUPLEX_STREAMED);
        assertThat(mode.getRequestTrailerMode()).isEqualTo(ProcessingMode.HeaderSendMode.SEND);
        assertThat(mode.getResponseTrailerMode()).isEqualTo(ProcessingMode.HeaderSendMode.SEND);
        assertThat(mode.getRequestHeaderMode()).isEqualTo(ProcessingMode.HeaderSendMode.SEND);
        assertThat(extProc.getMessageTimeout().getSeconds()).isGreaterThanOrEqualTo(300);
        assertThat(extProc.getFailureModeAllow()).isFalse();
        assertThat(extProc.getMetadataOptions().getForwardingNamespaces().getUntypedList())
                .contains("envoy.lb.subset_hint", "envoy.lb");
        assertThat(extProc.getMetadataOptions().getReceivingNamespaces().getUntypedList()).contains("envoy.lb");
        String pickerCluster = extProc.getGrpcService().getEnvoyGrpc().getClusterName();

        String routeCluster = hcm.getRouteConfig().getVirtualHosts(0).getRoutes(0).getRoute().getCluster();
        Cluster original = cluster(bootstrap, routeCluster);
        assertThat(original.getType()).isEqualTo(Cluster.DiscoveryType.ORIGINAL_DST);
        assertThat(original.getLbPolicy()).isEqualTo(Cluster.LbPolicy.CLUSTER_PROVIDED);
        assertThat(original.getOriginalDstLbConfig().getUseHttpHeader()).isTrue();
        assertThat(original.getOriginalDstLbConfig().getHttpHeaderName()).isEqualTo("x-gateway-destination-endpoint");

        Cluster picker = cluster(bootstrap, pickerCluster);
        HttpProtocolOptions http = picker.getTypedExtensionProtocolOptionsOrThrow(
                "envoy.extensions.upstreams.http.v3.HttpProtocolOptions").unpack(HttpProtocolOptions.class);
        assertThat(http.getExplicitHttpConfig().hasHttp2ProtocolOptions()).as("gRPC needs HTTP/2").isTrue();
        assertThat(picker.getTransportSocket().getTypedConfig().is(UpstreamTlsContext.class)).isTrue();
        assertThat(picker.getHealthChecks(0).getGrpcHealthCheck().getServiceName())
                .isEqualTo("envoy.service.ext_proc.v3.ExternalProcessor");
        assertThat(picker.getLoadAssignment().getEndpoints(0).getLbEndpoints(0).getEndpoint().getAddress()
                .getSocketAddress().getPortValue()).isEqualTo(9002);
    }

    @Test
    void aMisspeltFieldIsRefusedSoTheParseAboveProvesSomething() throws Exception {
        String broken = bootstrapYaml().replace("message_timeout:", "message_timout:");
        Object tree = new ObjectMapper(new YAMLFactory()).readValue(broken, Object.class);
        String json = new ObjectMapper().writeValueAsString(tree);
        org.assertj.core.api.Assertions.assertThatThrownBy(
                () -> JsonFormat.parser().usingTypeRegistry(TYPES).merge(json, Bootstrap.newBuilder()))
                .hasMessageContaining("message_timout");
    }

    private static Cluster cluster(Bootstrap b, String name) {
        return b.getStaticResources().getClustersList().stream().filter(c -> c.getName().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no cluster " + name));
    }
}
