package dev.homing.sim.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.homing.protocol.openai.RequestFormatException;
import java.util.List;
import org.junit.jupiter.api.Test;

class ServedModelsTest {

    @Test
    void adaptersGetVllmsIdsFromOneNeverReused() throws Exception {
        ServedModels m = new ServedModels(List.of("base", "alias"), true, List.of(new LoraModule("a", "/a", null)));
        assertThat(m.resolve("base")).isNull();
        assertThat(m.resolve("alias")).isNull();
        assertThat(m.resolve("a").id()).isEqualTo(1);
        assertThat(m.resolve("a").parent()).isEqualTo("base");
        assertThat(m.load(new LoraModule("b", "/b", "other")).id()).isEqualTo(2);
        m.unload("a");
        assertThat(m.load(new LoraModule("a", "/a2", null)).id()).isEqualTo(3);
        assertThat(m.adapters()).extracting(ServedModels.Adapter::name).containsExactly("b", "a");
    }

    @Test
    void refusesDuplicatesUnknownsAndTooMany() throws Exception {
        ServedModels m = new ServedModels(List.of("base"), true, List.of());
        assertThatThrownBy(() -> m.load(new LoraModule("base", "/x", null))).isInstanceOfSatisfying(
                RequestFormatException.class, e -> assertThat(e.error().status()).isEqualTo(400));
        assertThatThrownBy(() -> m.unload("nope")).isInstanceOfSatisfying(
                RequestFormatException.class, e -> assertThat(e.error().status()).isEqualTo(404));
        assertThatThrownBy(() -> m.resolve("nope"))
                .isInstanceOfSatisfying(RequestFormatException.class, e -> assertThat(e.error().message())
                        .isEqualTo("The model `nope` does not exist."));
        for (int i = 0; i < ServedModels.MAX_ADAPTERS; i++) {
            m.load(new LoraModule("l" + i, "/p", null));
        }
        assertThatThrownBy(() -> m.load(new LoraModule("one-more", "/p", null)))
                .isInstanceOf(RequestFormatException.class).hasMessageContaining("At most");
        assertThatThrownBy(() -> new ServedModels(List.of("base"), false, List.of(new LoraModule("a", "/a", null))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--enable-lora");
    }
}
