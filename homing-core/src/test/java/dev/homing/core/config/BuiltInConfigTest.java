package dev.homing.core.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.core.plugins.BuiltIns;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class BuiltInConfigTest {

    @ParameterizedTest
    @EnumSource(BuiltInConfig.class)
    void everyBuiltInResolves(BuiltInConfig builtIn) {
        ResolvedConfig r = builtIn.resolve(BuiltIns.registry(), ConfigResolverTest.CTX);
        assertThat(r.profiles()).isNotEmpty();
        assertThat(r.config().source()).isEqualTo(builtIn.resource());
    }

    /** "llm-d's P/D config, unchanged": the shipped file is the copy of llm-d's tested beside the others. */
    @Test
    void thePdBuiltInIsLlmdsPdConfigUnchanged() throws Exception {
        assertThat(withoutComments(BuiltInConfig.PD.text()))
                .isEqualTo(withoutComments(ConfigResolverTest.resource("pd.yaml")));
        assertThat(DefaultConfig.pdText()).isEqualTo(BuiltInConfig.PD.text());
        ResolvedConfig r = BuiltInConfig.PD.resolve(BuiltIns.registry(), ConfigResolverTest.CTX);
        assertThat(r.profileHandler()).isEqualTo("disagg-profile-handler");
        assertThat(r.profiles()).extracting(ResolvedConfig.Profile::name).containsExactly("prefill", "decode");
        assertThat(r.profiles()).extracting(ResolvedConfig.Profile::filters)
                .containsExactly(List.of("prefill-filter"), List.of("decode-filter"));
    }

    private static List<String> withoutComments(String yaml) {
        return yaml.lines().filter(l -> !l.startsWith("#")).toList();
    }
}
