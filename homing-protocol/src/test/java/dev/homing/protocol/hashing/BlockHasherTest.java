package dev.homing.protocol.hashing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Golden values computed with Python's {@code cbor2.dumps(obj, canonical=True)} and {@code hashlib.sha256},
 * the functions vLLM's {@code sha256_cbor} uses (vllm-wire-formats.md §2).
 */
class BlockHasherTest {

    /** sha256(cbor("42")) = sha256(62 34 32). */
    private static final String NONE_42 = "9fa6eb003f14425eb9c8e6baacfbcaab26257357b829c7bfa74ffcc4f31c1780";

    @Test
    void noneHashIsTheSha256OfTheSeedAsACborString() {
        BlockHasher hasher = BlockHasher.withPythonHashSeed("42");
        assertThat(hasher.noneHash().toHex()).isEqualTo(NONE_42);
        assertThat(hasher.noneHash().low64()).isEqualTo(Long.parseUnsignedLong("12056132650316601216"));
    }

    @Test
    void firstBlockInputIsParentTokensAndNone() {
        BlockHasher hasher = BlockHasher.withPythonHashSeed("42");
        int[] tokens = IntStream.range(0, 16).toArray();

        byte[] input = hasher.hashInput(null, tokens, 0, 16, null);

        assertThat(HexFormat.of().formatHex(input)).isEqualTo(
                "83" + "5820" + NONE_42 + "90" + "000102030405060708090a0b0c0d0e0f" + "f6");
        assertThat(hasher.hash(null, tokens, 0, 16, null).toHex())
                .isEqualTo("63876f948a5f9ef88191c7d6554fbeeea5c622d4da15d0d527bd352623590b0d");
    }

    @Test
    void extraKeysCarryTheLoraOnEveryBlockAndTheSaltOnTheFirstOnly() {
        BlockHasher hasher = BlockHasher.withPythonHashSeed("42");
        int[] tokens = new int[32];
        int[] first = {0, 23, 24, 255, 256, 65535, 65536, 151643, 100, 101, 102, 103, 104, 105, 106, 107};
        System.arraycopy(first, 0, tokens, 0, 16);
        for (int i = 16; i < 32; i++) {
            tokens[i] = i;
        }
        List<Object> firstKeys = BlockHasher.extraKeys("lora-a", "salt-1", true);
        List<Object> laterKeys = BlockHasher.extraKeys("lora-a", "salt-1", false);
        assertThat(firstKeys).containsExactly("lora-a", "salt-1");
        assertThat(laterKeys).containsExactly("lora-a");

        assertThat(HexFormat.of().formatHex(hasher.hashInput(null, tokens, 0, 16, firstKeys))).isEqualTo(
                "835820" + NONE_42 + "900017181818ff19010019ffff1a000100001a0002505b"
                        + "186418651866186718681869186a186b" + "82666c6f72612d616673616c742d31");
        BlockHash b1 = hasher.hash(null, tokens, 0, 16, firstKeys);
        assertThat(b1.toHex()).isEqualTo("6d042723b4eff3dfc07bfa640d19521e7d8bd5461d7f898856daad6b857510c5");

        BlockHash b2 = hasher.hash(b1, tokens, 16, 32, laterKeys);
        assertThat(b2.toHex()).isEqualTo("abb6d7324f7538fac4bbb6d4f64141e6f8309262f0228cd2c5d4f8a0fbae6aae");
        assertThat(b2.low64()).isEqualTo(Long.parseUnsignedLong("14255292090835430062"));
    }

    @Test
    void noExtraKeysIsNone() {
        assertThat(BlockHasher.extraKeys(null, null, true)).isNull();
        assertThat(BlockHasher.extraKeys(null, "salt", false)).isNull();
        assertThat(BlockHasher.extraKeys(null, "salt", true)).containsExactly("salt");
    }

    @Test
    void randomNoneHashComesFromTheInjectedGenerator() {
        BlockHash a = BlockHasher.withRandomSeed(new SplittableRandom(7)).noneHash();
        BlockHash b = BlockHasher.withRandomSeed(new SplittableRandom(7)).noneHash();
        BlockHash c = BlockHasher.withRandomSeed(new SplittableRandom(8)).noneHash();
        assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
        assertThat(a).isNotEqualTo(c);
    }

    @Test
    void copiesHashAlikeAndHashesAreValues() {
        BlockHasher hasher = BlockHasher.withPythonHashSeed("0");
        int[] tokens = {5, 6, 7, 8};
        BlockHash x = hasher.hash(null, tokens, 0, 4, null);
        BlockHash y = hasher.copy().hash(null, tokens, 0, 4, null);
        assertThat(x).isEqualTo(y);
        assertThat(BlockHash.ofHex(x.toHex())).isEqualTo(x);
        assertThat(hasher.hash(x, tokens, 0, 4, null)).isNotEqualTo(x);
    }
}
