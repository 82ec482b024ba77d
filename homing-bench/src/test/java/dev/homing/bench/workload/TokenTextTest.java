package dev.homing.bench.workload;

import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.sim.tokenizer.ChatMessage;
import dev.homing.sim.tokenizer.SimTokenizer;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TokenTextTest {

    private static final SimTokenizer TOKENIZER = SimTokenizer.builtin();

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 42, 1234567})
    void wordsAreExactlyTheirTokensUnderTheSimulatorsTokenizer(long seed) {
        SplittableRandom rng = new SplittableRandom(seed);
        for (int n : new int[] {0, 1, 2, 17, 1000}) {
            TokenText t = TokenText.words(n, rng);
            assertThat(t.length()).isEqualTo(n);
            assertThat(TOKENIZER.encode(t.text())).isEqualTo(t.tokens());
        }
    }

    @ParameterizedTest
    @ValueSource(longs = {5, 6, 7})
    void joinedPiecesEncodeToTheJoinedTokens(long seed) {
        SplittableRandom rng = new SplittableRandom(seed);
        TokenText joined = TokenText.words(300, rng).plus(TokenText.words(1, rng)).plus(TokenText.words(77, rng));
        assertThat(joined.length()).isEqualTo(378);
        assertThat(TOKENIZER.encode(joined.text())).isEqualTo(joined.tokens());
    }

    @Test
    void everyVocabularyWordFollowsEveryOtherAsItsOwnToken() {
        // all words in a row, then reversed: each seam is some word after some other
        int[] ids = TOKENIZER.vocabularyWordIds();
        int[] reversed = new int[ids.length];
        for (int i = 0; i < ids.length; i++) {
            reversed[i] = ids[ids.length - 1 - i];
        }
        assertThat(TOKENIZER.encode(TokenText.ofWordIds(ids).text())).isEqualTo(ids);
        assertThat(TOKENIZER.encode(TokenText.ofWordIds(reversed).text())).isEqualTo(reversed);
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void chatTokensAreTheTemplateAppliedTokens(boolean withSystem) {
        SplittableRandom rng = new SplittableRandom(9);
        List<ChatTokens.Turn> turns = new ArrayList<>();
        if (withSystem) {
            turns.add(new ChatTokens.Turn("system", TokenText.words(40, rng)));
        }
        for (int i = 0; i < 3; i++) {
            turns.add(new ChatTokens.Turn("user", TokenText.words(10 + i, rng)));
            turns.add(new ChatTokens.Turn("assistant", TokenText.words(5 + i, rng)));
        }
        turns.add(new ChatTokens.Turn("user", TokenText.words(1, rng)));
        Prompt p = ChatTokens.prompt(turns);
        List<ChatMessage> messages = p.messages().stream().map(m -> new ChatMessage(m.role(), m.content())).toList();
        assertThat(p.isChat()).isTrue();
        assertThat(p.messages()).hasSize(turns.size());
        assertThat(p.tokens()).isEqualTo(TOKENIZER.encode(TOKENIZER.applyChatTemplate(messages, true)));
    }
}
