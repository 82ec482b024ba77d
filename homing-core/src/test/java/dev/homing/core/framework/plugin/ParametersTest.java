package dev.homing.core.framework.plugin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/**
 * Keys match parameters as Go's {@code encoding/json} matches object keys to struct fields, which is how llm-d's plugin
 * factories read their parameters: the exact name preferred, else a key equal to it ignoring case.
 */
class ParametersTest {

    private static Parameters params(String json) {
        try {
            return Parameters.of(new ObjectMapper().readTree(json.replace('\'', '"')));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(e);
        }
    }

    @Test
    void aKeySpeltInAnotherCaseSetsTheParameterAsInGoWithoutAWarning() {
        Parameters p = params("{'LruSize': 2048, 'PREFIXPLUGINNAME': 'x'}");
        assertThat(p.integer("lruSize", 1024)).isEqualTo(2048);
        assertThat(p.string("prefixPluginName", null)).isEqualTo("x");
        assertThat(p.has("lrusize")).isTrue();
        assertThat(p.unknownKeys()).isEmpty();
        assertThat(p.notices()).isEmpty();
    }

    @Test
    void theExactNameWinsAndTheOtherSpellingIsWarnedAboutAsIgnored() {
        Parameters p = params("{'LruSize': 1, 'lruSize': 2}");
        assertThat(p.integer("lruSize", 1024)).isEqualTo(2);
        assertThat(p.unknownKeys()).containsExactly("LruSize");
        assertThat(p.notices()).containsExactly(new ParameterNotice("LruSize", "ignored: another spelling of "
                + "parameter 'lruSize', which 'lruSize' sets here (llm-d matches parameter names ignoring case and "
                + "applies one of them; keep one)"));
    }

    @Test
    void withoutTheExactNameTheSpellingThatSortsLastIsReadAsLlmDsSortedJsonHasGoApplyItLast() {
        Parameters p = params("{'lrusize': 1, 'LRUSIZE': 2, 'LruSize': 3}");
        assertThat(p.integer("lruSize", 1024)).isEqualTo(1);
        assertThat(p.unknownKeys()).containsExactly("LRUSIZE", "LruSize");
        assertThat(p.notices()).extracting(ParameterNotice::message)
                .allMatch(m -> m.contains("which 'lrusize' sets here"));
    }

    @Test
    void aTrulyUnknownKeyIsWarnedAboutAsUnknownInAnyCase() {
        Parameters p = params("{'lruSiz': 5}");
        assertThat(p.integer("lruSize", 1024)).isEqualTo(1024);
        assertThat(p.notices()).containsExactly(new ParameterNotice("lruSiz", "unknown, ignored (no parameter has this "
                + "name, in any case; llm-d ignores it too); known here: lruSize"));
    }

    @Test
    void nestedBlocksMatchTheSameWayAndPathsAndErrorsNameTheKeysAsTheFileSpellsThem() {
        Parameters p = params("{'IndexerConfig': {'KvBlockIndexConfig': {'EnableMetrics': true, 'colour': 1}}}");
        boolean metrics = NestedParameters.mapping(p, "indexerConfig", i -> NestedParameters.mapping(i,
                "kvBlockIndexConfig", k -> k.bool("enableMetrics", false)));
        assertThat(metrics).isTrue();
        assertThat(p.notices()).singleElement().extracting(ParameterNotice::path)
                .isEqualTo("IndexerConfig.KvBlockIndexConfig.colour");

        Parameters bad = params("{'Engines': [{'Name': 7}], 'LruSize': 'many'}");
        assertThatThrownBy(() -> bad.integer("lruSize", 1)).hasMessageStartingWith("parameter 'LruSize' must be an "
                + "integer, got 'many'");
        assertThatThrownBy(() -> NestedParameters.list(bad, "engines", e -> e.bool("name", false)))
                .hasMessage("parameter 'Engines[0]': parameter 'Name' must be true or false, got 7");
    }

    @Test
    void aQuotedIntegerIsAStringAndRefusedAsGoRefusesItForAnIntField() {
        assertThatThrownBy(() -> params("{'lruSize': '5'}").integer("lruSize", 1))
                .isInstanceOf(PluginConfigException.class)
                .hasMessage("parameter 'lruSize' must be an integer, got '5' (a string: write the number without quotes)");
        assertThatThrownBy(() -> params("{'maxIndexedBlocks': '-7'}").longValue("maxIndexedBlocks", 1))
                .hasMessageStartingWith("parameter 'maxIndexedBlocks' must be an integer, got '-7'");
        assertThatThrownBy(() -> params("{'n': 2.5}").integer("n", 1)).hasMessage("parameter 'n' must be an integer, "
                + "got 2.5");
        assertThatThrownBy(() -> params("{'n': 99999999999999999999}").longValue("n", 1))
                .hasMessageStartingWith("parameter 'n' is out of range");
        assertThat(params("{'n': 5}").integer("n", 1)).isEqualTo(5);
    }

    @Test
    void aNumberOrABooleanIsNoStringAsGoRefusesThemForAStringField() {
        assertThatThrownBy(() -> params("{'hashSeed': 42}").string("hashSeed", null))
                .hasMessage("parameter 'hashSeed' must be a string, got 42");
        assertThatThrownBy(() -> params("{'label': true}").string("label", null))
                .hasMessage("parameter 'label' must be a string, got true");
        assertThatThrownBy(() -> params("{'values': ['a', 1]}").strings("values"))
                .hasMessageStartingWith("parameter 'values' must be a list of strings");
        assertThat(params("{'hashSeed': '42'}").string("hashSeed", null)).isEqualTo("42");
    }

    @Test
    void aNoticeAboutAParameterNamesItAsTheFileSpellsIt() {
        Parameters p = params("{'MmTimeout': '5s'}");
        p.duration("mmTimeout", null);
        p.notice("mmTimeout", "read but not used");
        assertThat(p.notices()).containsExactly(new ParameterNotice("MmTimeout", "read but not used"));
    }
}
