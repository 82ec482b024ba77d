package dev.homing.router.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.homing.core.config.ConfigException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AccessTest {

    @TempDir
    Path dir;

    @Test
    void bearerTokensAcceptOnlyTheirOwnPresentedAsBearer() throws Exception {
        BearerTokens t = BearerTokens.parse("keys", "# clients\nsk-one\n\n  sk-two  \n");
        assertThat(t.size()).isEqualTo(2);
        assertThat(t.acceptsAuthorization("Bearer sk-one")).isTrue();
        assertThat(t.acceptsAuthorization("bearer sk-two")).as("the scheme is case-insensitive").isTrue();
        assertThat(t.acceptsAuthorization("Bearer sk-on")).isFalse();
        assertThat(t.acceptsAuthorization("Bearer sk-one2")).isFalse();
        assertThat(t.acceptsAuthorization("Basic sk-one")).isFalse();
        assertThat(t.acceptsAuthorization("sk-one")).isFalse();
        assertThat(t.acceptsAuthorization("Bearer ")).isFalse();
        assertThat(t.acceptsAuthorization(null)).isFalse();
        assertThat(t.accepts("# clients")).as("a comment is no token").isFalse();
    }

    @Test
    void aBadTokenFileNamesItsLine() {
        assertThatThrownBy(() -> BearerTokens.parse("keys.txt", "ok\nnot ok\n"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("keys.txt").hasMessageContaining("2");
        assertThatThrownBy(() -> BearerTokens.parse("keys.txt", "# none\n\n"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("no token");
        assertThatThrownBy(() -> PodTokens.parse("pods.txt", "pod-0 a\npod-0 b\n"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("named twice");
        assertThatThrownBy(() -> PodTokens.parse("pods.txt", "pod-0\n"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("pods.txt");
    }

    @Test
    void whatAPodIsToldItsOwnTokenTheClientsOrNothing() throws Exception {
        PodTokens pods = PodTokens.parse("pods", "pod-0 zero\n* others\n");
        assertThat(pods.tokenFor("pod-0")).isEqualTo("zero");
        assertThat(pods.tokenFor("pod-9")).isEqualTo("others");
        Path file = dir.resolve("pods");
        Files.writeString(file, "pod-0 zero\n");
        Access replaced = new Access(null, null, false, false, ReloadingFile.load(file, "pod tokens", PodTokens::parse));
        assertThat(replaced.authorizationFor("pod-0", "Bearer client")).isEqualTo("Bearer zero");
        assertThat(replaced.authorizationFor("pod-1", "Bearer client")).as("no token for it: the client's")
                .isEqualTo("Bearer client");
        assertThat(new Access(null, null, false, true, null).authorizationFor("pod-1", "Bearer client")).isNull();
        assertThat(Access.OPEN.authorizationFor("pod-1", "Bearer client")).isEqualTo("Bearer client");
    }

    @Test
    void explainIsForTheAdminTokenOrForAllWhenSaid() {
        Access admin = new Access(null, BearerTokens.of("root"), false, false, null);
        assertThat(admin.explains("root")).isTrue();
        assertThat(admin.explains("roo")).isFalse();
        assertThat(admin.explains(null)).isFalse();
        assertThat(Access.OPEN.explains(null)).as("no admin token: nobody is trusted").isFalse();
        assertThat(new Access(null, null, true, false, null).explains(null)).isTrue();
        assertThat(admin.admitsAdmin("Bearer root")).isTrue();
        assertThat(admin.admitsAdmin(null)).isFalse();
        assertThat(Access.OPEN.admitsAdmin(null)).isTrue();
        assertThat(Access.OPEN.admits(null)).isTrue();
    }

    @Test
    void aRotatedKeyFileTakesEffectOnceSettledAndABadOneIsRefused() throws Exception {
        Path file = dir.resolve("keys");
        Files.writeString(file, "old\n");
        ReloadingFile<BearerTokens> keys = ReloadingFile.load(file, "API keys", BearerTokens::parse);
        Access a = new Access(keys, null, false, false, null);
        assertThat(a.admits("Bearer old")).isTrue();
        Files.writeString(file, "new\n");
        a.poll(); // seen once: settling
        assertThat(a.admits("Bearer old")).isTrue();
        a.poll();
        assertThat(a.admits("Bearer new")).isTrue();
        assertThat(a.admits("Bearer old")).isFalse();
        Files.writeString(file, "bad token\n");
        a.poll();
        a.poll();
        assertThat(a.admits("Bearer new")).as("a file that does not parse keeps the keys before it").isTrue();
    }
}
