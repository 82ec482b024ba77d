package dev.homing.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * Jedis logs through SLF4J, and homing.jar sends that to java.util.logging (slf4j-jdk14 1.7, the parent pom). This
 * test's classpath holds what the jar ships; if Maven ever picks another slf4j-api than the binding's (a test
 * dependency once brought 2.x, which ignores a 1.7 binding), SLF4J falls back to NOP and Jedis's warnings vanish.
 */
class Slf4jBindingTest {

    @Test
    void slf4jBindsToJavaUtilLogging() {
        assertThat(LoggerFactory.getILoggerFactory().getClass().getName())
                .isEqualTo("org.slf4j.impl.JDK14LoggerFactory");
    }

    @Test
    void aWarningLoggedThroughSlf4jReachesJavaUtilLogging() {
        String name = Slf4jBindingTest.class.getName() + ".probe";
        Logger jul = Logger.getLogger(name);
        List<LogRecord> seen = new ArrayList<>();
        Handler handler = new Handler() {
            @Override
            public void publish(LogRecord record) {
                seen.add(record);
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        jul.setUseParentHandlers(false);
        jul.addHandler(handler);
        try {
            LoggerFactory.getLogger(name).warn("pool exhausted");
        } finally {
            jul.removeHandler(handler);
        }
        assertThat(seen).extracting(LogRecord::getMessage).containsExactly("pool exhausted");
    }
}
