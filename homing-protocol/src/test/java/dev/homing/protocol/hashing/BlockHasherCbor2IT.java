package dev.homing.protocol.hashing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.StringJoiner;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Our chain of block hashes against Python's cbor2 and hashlib, the libraries vLLM's {@code sha256_cbor} runs on,
 * for seeded random token blocks, LoRA names and salts.
 */
class BlockHasherCbor2IT {

    private static final String PYTHON = "/usr/bin/python3";

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5})
    void chainMatchesCbor2(long seed) throws Exception {
        SplittableRandom rng = new SplittableRandom(seed);
        int blockSize = rng.nextBoolean() ? 16 : 64;
        int blocks = 1 + rng.nextInt(6);
        int[] tokens = new int[blocks * blockSize];
        for (int i = 0; i < tokens.length; i++) {
            tokens[i] = rng.nextInt(4) == 0 ? rng.nextInt(24) : rng.nextInt(151_936);
        }
        String hashSeed = Long.toString(rng.nextLong(1_000_000));
        String lora = rng.nextBoolean() ? "adapter-" + rng.nextInt(100) : null;
        String salt = rng.nextBoolean() ? "salt ü " + rng.nextInt(100) : null;

        BlockHasher hasher = BlockHasher.withPythonHashSeed(hashSeed);
        List<String> ours = new ArrayList<>();
        BlockHash parent = null;
        for (int b = 0; b < blocks; b++) {
            parent = hasher.hash(parent, tokens, b * blockSize, (b + 1) * blockSize,
                    BlockHasher.extraKeys(lora, salt, b == 0));
            ours.add(parent.toHex());
        }

        assertThat(python(hashSeed, tokens, blockSize, lora, salt)).isEqualTo(ours);
    }

    private static List<String> python(String seed, int[] tokens, int blockSize, String lora, String salt)
            throws IOException, InterruptedException {
        StringJoiner toks = new StringJoiner(",", "[", "]");
        for (int t : tokens) {
            toks.add(Integer.toString(t));
        }
        String script = String.join("\n",
                "import cbor2, hashlib, json, sys",
                "seed, toks, bs, lora, salt = json.loads(sys.stdin.read())",
                "h = lambda o: hashlib.sha256(cbor2.dumps(o, canonical=True)).digest()",
                "parent = h(seed)",
                "for b in range(len(toks) // bs):",
                "    keys = ([lora] if lora is not None else []) + ([salt] if salt is not None and b == 0 else [])",
                "    parent = h((parent, tuple(toks[b*bs:(b+1)*bs]), tuple(keys) if keys else None))",
                "    print(parent.hex())");
        String input = "[" + json(seed) + "," + toks + "," + blockSize + "," + json(lora) + "," + json(salt) + "]";
        Process p = new ProcessBuilder(PYTHON, "-c", script).redirectErrorStream(true).start();
        p.getOutputStream().write(input.getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("python finished").isTrue();
        assertThat(p.exitValue()).as("python3 with cbor2 (Debian python3-cbor2) failed:\n%s", out).isZero();
        return out.lines().toList();
    }

    private static String json(String s) {
        if (s == null) {
            return "null";
        }
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') {
                b.append('\\');
            }
            b.append(c);
        }
        return b.append('"').toString();
    }
}
