package dev.homing.core.plugins.parser;

import static dev.homing.core.plugins.PluginFixtures.context;
import static dev.homing.core.plugins.PluginFixtures.params;
import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.core.plugin.Plugin;
import org.junit.jupiter.api.Test;

/** The four parser types are records of a name: their one behaviour is naming and taking no parameters. */
class ParserPluginsTest {

    @Test
    void eachIsNamedAfterItsTypeUnlessNamed() {
        assertThat(OpenAiParser.create(null, params("{}"), context())).extracting(Plugin::name, Plugin::type)
                .containsExactly("openai-parser", "openai-parser");
        assertThat(VllmGrpcParser.create("grpc", params("{}"), context())).extracting(Plugin::name, Plugin::type)
                .containsExactly("grpc", "vllmgrpc-parser");
        assertThat(PassthroughParser.create(" ", params("{}"), context()).name()).isEqualTo("passthrough-parser");
        assertThat(VertexAiParser.create(null, params("{}"), context()).type()).isEqualTo("vertexai-parser");
    }

    @Test
    void noneReadsAParameter() {
        var p = params("{'anything':1}");
        OpenAiParser.create(null, p, context());
        VllmGrpcParser.create(null, p, context());
        PassthroughParser.create(null, p, context());
        VertexAiParser.create(null, p, context());
        assertThat(p.unknownKeys()).containsExactly("anything");
    }
}
