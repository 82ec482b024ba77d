package dev.homing.router.auth;

import dev.homing.core.config.ConfigException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;

/**
 * The bearer tokens a port accepts. A presented token is compared with every one, each compare in constant time over
 * SHA-256 digests (so neither a token's length nor how much of it matched shows in the time taken), and without
 * stopping at the first match (so neither does which token it was).
 */
public final class BearerTokens {

    private static final String BEARER = "Bearer ";

    private final List<byte[]> digests;

    private BearerTokens(List<byte[]> digests) {
        this.digests = List.copyOf(digests);
    }

    public static BearerTokens of(String token) {
        if (token == null || token.isBlank() || !printable(token.strip())) {
            throw new IllegalArgumentException("a token is printable ASCII without spaces, and not empty");
        }
        return new BearerTokens(List.of(digest(token.strip())));
    }

    /**
     * Tokens one a line; blank lines and lines starting with {@code #} are skipped.
     *
     * @throws ConfigException naming {@code source} and the line of a token that cannot be one, or when there is none
     */
    public static BearerTokens parse(String source, String text) throws ConfigException {
        List<byte[]> out = new ArrayList<>();
        String[] lines = text.split("\r?\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String t = lines[i].strip();
            if (t.isEmpty() || t.startsWith("#")) {
                continue;
            }
            if (!printable(t)) {
                throw new ConfigException(source, i + 1, "a token is printable ASCII without spaces");
            }
            out.add(digest(t));
        }
        if (out.isEmpty()) {
            throw new ConfigException(source, 0, "no token: every client would be refused");
        }
        return new BearerTokens(out);
    }

    /** Whether an {@code Authorization} header's value presents one of the tokens. */
    public boolean acceptsAuthorization(String authorization) {
        if (authorization == null || !authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return false;
        }
        return accepts(authorization.substring(BEARER.length()).strip());
    }

    /** Whether {@code token} is one of the tokens. */
    public boolean accepts(String token) {
        if (token == null || token.isEmpty()) {
            return false;
        }
        byte[] presented = digest(token);
        boolean match = false;
        for (byte[] d : digests) {
            match |= MessageDigest.isEqual(presented, d);
        }
        return match;
    }

    public int size() {
        return digests.size();
    }

    static boolean printable(String token) {
        if (token.isEmpty()) {
            return false;
        }
        for (int i = 0; i < token.length(); i++) {
            char c = token.charAt(i);
            if (c <= ' ' || c >= 0x7f) {
                return false;
            }
        }
        return true;
    }

    private static byte[] digest(String token) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
