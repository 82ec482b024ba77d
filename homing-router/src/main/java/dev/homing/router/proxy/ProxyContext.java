package dev.homing.router.proxy;

import dev.homing.core.director.Decision;
import dev.homing.core.director.Director;
import dev.homing.core.time.Ticker;
import dev.homing.router.auth.Access;
import dev.homing.router.flow.FlowGate;
import dev.homing.router.http.RequestIntake;
import dev.homing.router.metrics.RequestMetrics;
import dev.homing.router.outlier.PodHealth;
import dev.homing.router.scrape.EndpointCatalog;
import java.util.concurrent.Executor;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

/**
 * What every connection of the API port shares: who judges a request, who decides where it goes, the connections to
 * the pods, the metrics, and how long to wait.
 *
 * @param health                which endpoints may be sent a request; its ejections told of every attempt's outcome
 * @param retries               how many busy answers may be retried elsewhere
 * @param mayBlock              whether a decision (intake and director) may wait on I/O now (a tokenizer call, a
 *                              Redis read): such decisions run on {@code offLoop}, others on the event loop itself
 * @param offLoop               where decisions that may block run
 * @param responseTimeoutMillis longest wait for a pod's response head once the request is sent; 0 for none
 * @param idleTimeoutMillis     longest wait for a response's next bytes once its head is in; 0 for none
 * @param explainer             renders a decision as the value of {@link Exchange#EXPLAIN_HEADER}
 * @param access                who may use the API and be told how a request was placed; what pods are told
 * @param draining              whether the port is draining: each connection closes once its response ends
 */
record ProxyContext(Director director, EndpointCatalog catalog, RequestIntake intake, PodChannels pods,
                    PodHealth health, RetryBudget retries, RequestMetrics metrics, Ticker ticker, int maxAttempts,
                    long responseTimeoutMillis, long idleTimeoutMillis, Function<Decision, String> explainer,
                    BooleanSupplier mayBlock, Executor offLoop, Access access, BooleanSupplier draining,
                    FlowGate flow) {
}
