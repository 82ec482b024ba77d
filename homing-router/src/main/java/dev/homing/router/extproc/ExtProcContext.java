package dev.homing.router.extproc;

import dev.homing.core.director.Director;
import dev.homing.core.time.Ticker;
import dev.homing.router.flow.FlowGate;
import dev.homing.router.http.RequestIntake;
import dev.homing.router.metrics.RequestMetrics;
import dev.homing.router.outlier.PodHealth;
import dev.homing.router.scrape.EndpointCatalog;
import java.util.concurrent.Executor;

/**
 * What every ext_proc stream shares with the HTTP proxy: the same director decides, the same intake reads a request,
 * the same catalog says which endpoints serve a model, the same metrics count it.
 *
 * @param health       which endpoints may be picked, as the proxy's; told of each response's status (a 5xx counts
 *                     against the pod that answered, as the proxy counts it)
 * @param maxBodyBytes the largest request body gathered (413 above it), as the proxy's
 * @param mayWait      threads for decisions, which may wait on I/O (virtual threads)
 */
record ExtProcContext(Director director, RequestIntake intake, EndpointCatalog catalog, PodHealth health,
                      RequestMetrics metrics, Ticker ticker, int maxBodyBytes, Executor mayWait, FlowGate flow) {
}
