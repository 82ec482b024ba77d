package dev.homing.router.shared;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisNoScriptException;

/**
 * A Lua script run by its SHA-1, sent whole only when Redis does not have it (first use, or after Redis restarted).
 * Scripts make each change to shared state atomic and one round trip. Each script lies beside the class that runs it,
 * so a feature's scripts move with it.
 */
public final class RedisScript {

    private final String name;
    private final String source;
    private final String sha;

    private RedisScript(String name, String source) {
        this.name = name;
        this.source = source;
        try {
            this.sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1")
                    .digest(source.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The script {@code name.lua} in the package of {@code beside}. */
    public static RedisScript load(Class<?> beside, String name) {
        try (InputStream in = beside.getResourceAsStream(name + ".lua")) {
            if (in == null) {
                throw new IllegalStateException("script " + name + ".lua is missing from the classpath");
            }
            return new RedisScript(name, new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public Object run(UnifiedJedis redis, List<String> args) {
        try {
            return redis.evalsha(sha, List.of(), args);
        } catch (JedisNoScriptException e) {
            return redis.eval(source, List.of(), args);
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
