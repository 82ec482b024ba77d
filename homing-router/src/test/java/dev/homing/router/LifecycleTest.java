package dev.homing.router;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The router's parts start in order and close in reverse, all of them, whatever fails on the way. */
class LifecycleTest {

    private final List<String> log = new ArrayList<>();
    private final Lifecycle lifecycle = new Lifecycle();

    /** A part that records its start and close, and throws what it is told to. */
    private final class Part implements AutoCloseable {

        private final String name;
        private Throwable onStart;
        private Throwable onClose;

        Part(String name) {
            this.name = name;
        }

        Part failingToStart(Throwable t) {
            onStart = t;
            return this;
        }

        Part failingToClose(Throwable t) {
            onClose = t;
            return this;
        }

        void start() {
            log.add("start " + name);
            throwIfSet(onStart);
        }

        @Override
        public void close() {
            log.add("close " + name);
            throwIfSet(onClose);
        }
    }

    private Part started(Part p) {
        return lifecycle.add(p, Part::start);
    }

    private static void throwIfSet(Throwable t) {
        if (t instanceof RuntimeException r) {
            throw r;
        }
        if (t instanceof Error e) {
            throw e;
        }
    }

    @Test
    void startsInOrderAndClosesInReverse() {
        started(new Part("redis"));
        lifecycle.add(new Part("client")); // holds resources, needs no start
        started(new Part("api"));

        lifecycle.start();
        assertThat(log).containsExactly("start redis", "start api");

        lifecycle.close();
        assertThat(log).containsExactly("start redis", "start api", "close api", "close client", "close redis");
    }

    @Test
    void whenAPartCannotStartEveryPartIsClosedAndItsErrorThrown() {
        IllegalStateException inUse = new IllegalStateException("the router's API port could not listen (in use?)");
        started(new Part("redis"));
        started(new Part("admin").failingToStart(inUse));
        started(new Part("api"));

        assertThatThrownBy(lifecycle::start).isSameAs(inUse).hasNoSuppressedExceptions();
        assertThat(log).containsExactly("start redis", "start admin", "close api", "close admin", "close redis");
    }

    @Test
    void anErrorStoppingTheStartClosesEveryPartToo() {
        ExceptionInInitializerError error = new ExceptionInInitializerError("a script did not load");
        started(new Part("redis"));
        started(new Part("index").failingToStart(error));

        assertThatThrownBy(lifecycle::start).isSameAs(error);
        assertThat(log).containsExactly("start redis", "start index", "close index", "close redis");
    }

    @Test
    void aPartFailingToCloseAfterAFailedStartIsSuppressedInTheOriginalError() {
        IllegalStateException inUse = new IllegalStateException("port in use");
        RuntimeException closing = new RuntimeException("could not close the pool");
        Error closingError = new AssertionError("could not close the client");
        started(new Part("redis").failingToClose(closing));
        started(new Part("client").failingToClose(closingError));
        started(new Part("api").failingToStart(inUse));

        assertThatThrownBy(lifecycle::start).isSameAs(inUse);
        assertThat(inUse.getSuppressed()).containsExactly(closingError, closing);
        assertThat(log).containsExactly("start redis", "start client", "start api",
                "close api", "close client", "close redis");
    }

    @Test
    void closingAfterAFailureKeepsThatFailureTheOneReported() {
        Exception config = new Exception("epp.yaml:7: unknown plugin type 'queue-scorr'");
        RuntimeException closing = new RuntimeException("could not close the pool");
        lifecycle.add(new Part("redis").failingToClose(closing));
        lifecycle.add(new Part("tokens"));

        lifecycle.closeAfter(config);
        assertThat(config.getSuppressed()).containsExactly(closing);
        assertThat(log).containsExactly("close tokens", "close redis");
    }

    @Test
    void onePartFailingToCloseDoesNotKeepTheOthersOpen() {
        RuntimeException first = new RuntimeException("api");
        RuntimeException second = new RuntimeException("redis");
        started(new Part("redis").failingToClose(second));
        started(new Part("scraper"));
        started(new Part("api").failingToClose(first));
        lifecycle.start();

        assertThatThrownBy(lifecycle::close).isSameAs(first);
        assertThat(first.getSuppressed()).containsExactly(second);
        assertThat(log).endsWith("close api", "close scraper", "close redis");
    }

    @Test
    void anErrorClosingOnePartDoesNotKeepTheOthersOpen() {
        Error error = new AssertionError("api");
        started(new Part("redis"));
        started(new Part("api").failingToClose(error));
        lifecycle.start();

        assertThatThrownBy(lifecycle::close).isSameAs(error);
        assertThat(log).endsWith("close api", "close redis");
    }

    @Test
    void closingTwiceIsHarmless() {
        started(new Part("redis"));
        started(new Part("api"));
        lifecycle.start();

        lifecycle.close();
        lifecycle.close();
        assertThat(log).containsExactly("start redis", "start api", "close api", "close redis");
    }
}
