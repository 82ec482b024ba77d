package dev.homing.core.archfixture;

import java.time.Clock;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.Date;
import java.util.GregorianCalendar;
import java.util.TimeZone;
import java.util.function.LongSupplier;

/** Breaks "no global clock" every way the rule knows, a method reference included. */
public final class ReadsTheClock {

    long millis() {
        return System.currentTimeMillis();
    }

    LongSupplier nanos() {
        return System::nanoTime;
    }

    Object others() {
        return new Object[] {Instant.now(), LocalDateTime.now(), Clock.systemUTC(), new Date()};
    }

    Object calendars() {
        return new Object[] {new GregorianCalendar(), new GregorianCalendar(TimeZone.getTimeZone("UTC"))};
    }
}
