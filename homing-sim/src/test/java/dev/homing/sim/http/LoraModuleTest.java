package dev.homing.sim.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LoraModuleTest {

    @Test
    void readsBothOfVllmsForms() {
        assertThat(LoraModule.parse("sql-lora=/models/sql=v2")).isEqualTo(new LoraModule("sql-lora",
                "/models/sql=v2", null));
        assertThat(LoraModule.parse("{\"name\":\"a\",\"path\":\"/p\",\"base_model_name\":\"m\"}"))
                .isEqualTo(new LoraModule("a", "/p", "m"));
        assertThat(LoraModule.parse(" {\"name\":\"a\",\"path\":\"/p\"} ").baseModelName()).isNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"noequals", "=path", "name=", "{\"name\":\"a\"}", "{\"name\":1,\"path\":\"/p\"}", "{bad"})
    void refusesTheRest(String text) {
        assertThatThrownBy(() -> LoraModule.parse(text)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--lora-modules");
    }
}
