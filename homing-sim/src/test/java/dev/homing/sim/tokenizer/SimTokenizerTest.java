package dev.homing.sim.tokenizer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class SimTokenizerTest {

    private static final SimTokenizer TOK = SimTokenizer.builtin();

    static IntStream seeds() {
        return IntStream.range(0, 40);
    }

    /** Strings mixing English, whitespace runs, digits, punctuation, accents, CJK, emoji, lone surrogates, specials. */
    private static String randomString(SplittableRandom rng) {
        String[] parts = {"the", " cloud", "Computing", " ", "  ", "\n", "\n\n", "\t", "\r\n", "7", "42", " 3",
                ".", ",", "!?", "'s", "'LL", "don't", "é", "naïve", "日本語", "😀", "a\u0301", "\uD800", "\uDC00x",
                "<|im_start|>", "<|im_end|>", "<|endoftext|>", "<|", "|>", "<|im_sta", "\u0000", "\u00a0", "ß",
                "Ωmega", "x\uD83D", "\uDE00y", " \u3000 ", "zzzz", "qwxv"};
        StringBuilder b = new StringBuilder();
        int n = rng.nextInt(30);
        for (int i = 0; i < n; i++) {
            if (rng.nextInt(5) == 0) {
                b.append((char) rng.nextInt(0x10000)); // any UTF-16 unit, surrogates included
            } else {
                b.append(parts[rng.nextInt(parts.length)]);
            }
        }
        return b.toString();
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void decodeInvertsEncodeForAnyString(int seed) {
        SplittableRandom rng = new SplittableRandom(seed);
        for (int i = 0; i < 50; i++) {
            String s = randomString(rng);
            int[] ids = TOK.encode(s);
            assertThat(TOK.decode(ids)).isEqualTo(s);
            assertThat(IntStream.of(ids).allMatch(id -> id >= 0 && id < SimTokenizer.VOCAB_SIZE)).isTrue();
        }
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void streamingDecodeMatchesBatchDecodeWithoutSpecials(int seed) {
        SplittableRandom rng = new SplittableRandom(seed);
        String s = randomString(rng) + randomString(rng);
        int[] ids = TOK.encode(s);
        Detokenizer d = TOK.detokenizer();
        StringBuilder streamed = new StringBuilder();
        for (int id : ids) {
            streamed.append(d.append(id));
        }
        streamed.append(d.finish());
        assertThat(streamed.toString()).isEqualTo(TOK.decode(ids, 0, ids.length, true));
    }

    @Test
    void englishIsAboutFourCharactersPerToken() {
        String sentence = "Write one sentence about topic number 7 in cloud computing.";
        assertThat(TOK.encode(sentence).length).isBetween(11, 13);

        String paragraph = "The history of the city is a long story. People came to live near the river because "
                + "the land was good for farming, and the water made it easy to travel and trade with other towns. "
                + "Over many years, the small village grew into a large and busy place with schools, markets and "
                + "a famous bridge that you can still see today.";
        double charsPerToken = (double) paragraph.length() / TOK.encode(paragraph).length;
        assertThat(charsPerToken).isBetween(3.5, 6.0);
    }

    @Test
    void wordsKeepTheirLeadingSpace() {
        int[] ids = TOK.encode("Hello world, hello World");
        assertThat(ids).hasSize(5);
        assertThat(TOK.decode(new int[] {ids[1]})).isEqualTo(" world");
        assertThat(TOK.decode(new int[] {ids[2]})).isEqualTo(",");
        assertThat(TOK.decode(new int[] {ids[4]})).isEqualTo(" World");
    }

    @Test
    void everyVocabularyWordIsOneToken() {
        assertThat(TOK.vocabularyWordCount()).isGreaterThan(2000);
        for (int i = 0; i < TOK.vocabularyWordCount(); i++) {
            String w = TOK.vocabularyWord(i);
            assertThat(w).startsWith(" ");
            assertThat(TOK.encode(w)).containsExactly(TOK.vocabularyWordId(i));
        }
        assertThat(TOK.vocabularyWord(0)).isEqualTo(" the");
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 17, 500, 7000})
    void randomTextHasAnExactTokenCount(int tokens) {
        String text = TOK.randomText(tokens, new SplittableRandom(tokens));
        assertThat(TOK.encode(text)).hasSize(tokens);
        assertThat(TOK.randomText(tokens, new SplittableRandom(tokens))).isEqualTo(text);
    }

    @Test
    void unknownCharactersFallBackToUtf8Bytes() {
        assertThat(TOK.encode("é")).containsExactly(0xC3, 0xA9);
        assertThat(TOK.encode("😀")).containsExactly(0xF0, 0x9F, 0x98, 0x80);
        assertThat(TOK.encode("!")).containsExactly((int) '!');
        assertThat(TOK.encode("")).isEmpty();
    }

    @Test
    void specialTokensHaveQwenIds() {
        assertThat(TOK.encode("<|im_start|>user\nhi<|im_end|><|endoftext|>"))
                .startsWith(SimTokenizer.IM_START)
                .endsWith(SimTokenizer.IM_END, SimTokenizer.ENDOFTEXT);
        assertThat(TOK.isSpecial(SimTokenizer.IM_END)).isTrue();
        assertThat(TOK.isSpecial(151_642)).isFalse();
        assertThat(TOK.decode(new int[] {SimTokenizer.IM_START, 'h', 'i', SimTokenizer.IM_END}, 0, 4, true))
                .isEqualTo("hi");
        assertThat(TOK.vocabularySize()).isEqualTo(151_936);
        // Every id below the specials means something.
        assertThat(TOK.decode(new int[] {151_642})).isNotEmpty();
    }

    @Test
    void aCharacterSplitAcrossTokensStreamsWhenComplete() {
        Detokenizer d = TOK.detokenizer();
        assertThat(d.append(0xE6)).isEmpty();
        assertThat(d.append(0x97)).isEmpty();
        assertThat(d.append(0xA5)).isEqualTo("日");
        assertThat(d.append(SimTokenizer.IM_END)).isEmpty();
        assertThat(d.append(0xC3)).isEmpty();
        assertThat(d.finish()).isEqualTo("\uFFFD");
    }

    @Test
    void chatTemplateIsQwenChatMl() {
        String withDefault = TOK.applyChatTemplate(List.of(new ChatMessage("user", "Hi there")), true);
        assertThat(withDefault).isEqualTo("<|im_start|>system\nYou are Qwen, created by Alibaba Cloud. You are a "
                + "helpful assistant.<|im_end|>\n<|im_start|>user\nHi there<|im_end|>\n<|im_start|>assistant\n");

        String withSystem = TOK.applyChatTemplate(List.of(new ChatMessage("system", "Be brief."),
                new ChatMessage("user", "Q"), new ChatMessage("assistant", "A"), new ChatMessage("user", null)),
                false);
        assertThat(withSystem).isEqualTo("<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\nQ<|im_end|>\n"
                + "<|im_start|>assistant\nA<|im_end|>\n<|im_start|>user\n<|im_end|>\n");

        int[] ids = TOK.encode(withDefault);
        assertThat(ids[0]).isEqualTo(SimTokenizer.IM_START);
        assertThat(TOK.decode(ids)).isEqualTo(withDefault);
    }
}
