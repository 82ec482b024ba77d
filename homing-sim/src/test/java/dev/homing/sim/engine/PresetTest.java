package dev.homing.sim.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PresetTest {

    @Test
    void presetsAreFoundByTheirCommandLineNames() {
        assertThat(Preset.byName("cpu-qwen2.5-0.5b")).isEqualTo(Preset.CPU_QWEN2_5_0_5B);
        assertThat(Preset.byName("qwen3-32b-h100-tp2").modelName()).isEqualTo("Qwen/Qwen3-32B");
        assertThat(Preset.byName("llama-3.1-8b-h100").modelName()).isEqualTo("meta-llama/Llama-3.1-8B-Instruct");
        assertThat(Preset.byName("llama-3.1-70b-h100-tp4").modelName()).isEqualTo("meta-llama/Llama-3.1-70B-Instruct");
        assertThatThrownBy(() -> Preset.byName("gpt-5")).hasMessageContaining("cpu-qwen2.5-0.5b");
    }

    @Test
    void capacitiesMatchTheCalibration() {
        assertThat(Preset.CPU_QWEN2_5_0_5B.engine().numGpuBlocks()).isEqualTo(21_845);
        assertThat(Preset.QWEN3_32B_H100_TP2.engine().numGpuBlocks() * 16).isEqualTo(307_328);
        assertThat(Preset.LLAMA_3_1_70B_H100_TP4.engine().numGpuBlocks() * 16).isEqualTo(461_376);
        assertThat(Preset.QWEN3_32B_H100_TP2.engine().maxNumBatchedTokens()).isEqualTo(8192);
        assertThat(Preset.QWEN3_32B_H100_TP2.engine().maxNumSeqs()).isEqualTo(1024);
        assertThat(Preset.CPU_QWEN2_5_0_5B.engine().maxNumSeqs()).isEqualTo(128);
        assertThat(Preset.CPU_QWEN2_5_0_5B.engine().maxNumBatchedTokens()).isEqualTo(2048);
    }

    @Test
    void biggerBlocksOverTheSameMemoryAreFewer() {
        EngineConfig qwen = Preset.QWEN3_32B_H100_TP2.engine();
        EngineConfig by64 = qwen.withBlockSizeKeepingCapacity(64);
        assertThat(by64.blockSize()).isEqualTo(64);
        // 19,207 usable blocks of 16 = 307,312 tokens = 4,801 blocks of 64 (+ the null block).
        assertThat(by64.numGpuBlocks()).isEqualTo(4_802);
        assertThat(by64.kvCapacityTokens()).isLessThanOrEqualTo(qwen.kvCapacityTokens());
        assertThat(qwen.withBlockSizeKeepingCapacity(16)).isEqualTo(qwen);
    }
}
