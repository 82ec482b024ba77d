package dev.homing.router.http;

import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Ids for requests that come without an {@code x-request-id}: random version-4 UUIDs, as llm-d's {@code uuid.NewString}
 * makes, from the calling thread's generator. {@link UUID#randomUUID} draws from the JDK's one SecureRandom, whose
 * lock every request would queue on; an id that names a request in logs and traces needs no cryptographic strength.
 */
public final class RequestIds {

    private RequestIds() {
    }

    public static String next() {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        long hi = (r.nextLong() & ~0xF000L) | 0x4000L; // version 4
        long lo = (r.nextLong() & ~(0xC000_0000_0000_0000L)) | 0x8000_0000_0000_0000L; // IETF variant
        return new UUID(hi, lo).toString();
    }
}
