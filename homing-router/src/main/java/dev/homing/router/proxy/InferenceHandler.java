package dev.homing.router.proxy;

import dev.homing.core.director.Decision;
import dev.homing.core.director.Director;
import dev.homing.core.director.Dispatch;
import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.framework.request.InferenceRequest;
import dev.homing.core.framework.requestcontrol.Outcome;
import dev.homing.core.framework.scheduling.SchedulingException;
import dev.homing.core.time.Ticker;
import dev.homing.protocol.openai.ApiKind;
import dev.homing.protocol.openai.OpenAiError;
import dev.homing.router.http.ErrorResponses;
import dev.homing.router.http.RequestIntake;
import dev.homing.router.http.Usage;
import dev.homing.router.metrics.RequestMetrics;
import dev.homing.router.scrape.EndpointCatalog;
import dev.homing.router.upstream.ResponseTimeoutException;
import dev.homing.router.upstream.UpstreamResponse;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.function.Function;

/**
 * Serves every API the router forwards ({@link ApiKind}): reads the body once, parses the routing fields in one pass,
 * asks the director where to go, forwards the original bytes with the client's method and relays the response as it
 * arrives. A request naming no model (a passthrough one) may go to any endpoint. Every path out of here closes the
 * dispatch, so the load it credited is always released; a Responses API response tells the dispatch its id, so that
 * follow-ups naming it come back to the same pod.
 */
public final class InferenceHandler {

    /**
     * Ask for the decision to come back as a response header of the same name, rendered by the explainer this handler
     * is given. The composition root gives it explain's compact rendering, so the header and {@code /debug/schedule}
     * explain alike while proxy and explain import nothing of each other: explaining a decision forwards nothing,
     * forwarding one renders nothing, and what the two share (reading a request) lies below both.
     */
    public static final String EXPLAIN_HEADER = "x-homing-explain";

    private final Director director;
    private final EndpointCatalog catalog;
    private final Upstream upstream;
    private final RequestMetrics metrics;
    private final Ticker ticker;
    private final RequestIntake intake;
    private final int maxAttempts;
    private final Function<Decision, String> explainer;

    /** @param explainer renders a decision as the one-line value of {@link #EXPLAIN_HEADER} */
    public InferenceHandler(Director director, EndpointCatalog catalog, RequestIntake intake, Upstream upstream,
                            RequestMetrics metrics, Ticker ticker, int maxAttempts,
                            Function<Decision, String> explainer) {
        this.director = director;
        this.catalog = catalog;
        this.intake = intake;
        this.upstream = upstream;
        this.metrics = metrics;
        this.ticker = ticker;
        this.maxAttempts = Math.max(1, maxAttempts);
        this.explainer = explainer;
    }

    public void handle(ApiKind api, ServerRequest req, ServerResponse res) {
        long start = ticker.nanos();
        RequestIntake.Result in = intake.read(api, req);
        if (in.error() != null) {
            metrics.rejected("", in.error().status());
            ErrorResponses.send(res, in.error());
            return;
        }
        InferenceRequest request = in.request();
        byte[] body = in.body();
        String model = request.model();
        String target = request.targetModel();
        String method = req.prologue().method().text();
        String path = req.prologue().uriPath().rawPath();
        String query = req.prologue().query().rawValue();
        String pathAndQuery = query == null || query.isEmpty() ? path : path + "?" + query;

        metrics.requestStarted(model, target);
        Relay.Result result = Relay.Result.NONE;
        try {
            result = forward(request, method, pathAndQuery, body, res, start);
        } finally {
            metrics.requestEnded(model, target, result.status(), (ticker.nanos() - start) / 1e9,
                    result.usage().promptTokens(), result.usage().completionTokens(), result.usage().cachedTokens());
        }
    }

    private Relay.Result forward(InferenceRequest request, String method, String pathAndQuery, byte[] body,
                                 ServerResponse res, long start) {
        Set<String> failed = new LinkedHashSet<>();
        String model = request.targetModel();
        while (true) {
            Dispatch dispatch;
            long t0 = ticker.nanos();
            try {
                dispatch = director.dispatch(request,
                        (EndpointState e) -> !failed.contains(e.name()) && catalog.serves(e.name(), model));
                metrics.scheduled(true, (ticker.nanos() - t0) / 1e9);
            } catch (SchedulingException e) {
                metrics.scheduled(false, (ticker.nanos() - t0) / 1e9);
                return fail(res, failed.isEmpty() ? OpenAiError.refused(e.status(), e.getMessage()) : unreachable(failed));
            }
            try (dispatch) {
                EndpointState target = dispatch.target();
                if ("true".equalsIgnoreCase(request.header(EXPLAIN_HEADER))) {
                    res.header(EXPLAIN_HEADER, explainer.apply(new Decision(dispatch.cycle(), dispatch.result())));
                }
                UpstreamResponse response;
                try {
                    response = upstream.send(target.endpoint(), method, pathAndQuery,
                            request.headers(), dispatch.cycle().upstreamHeaders(),
                            body.length == 0 ? null : body);
                } catch (IOException e) {
                    if (e instanceof ResponseTimeoutException) {
                        // The pod accepted the request and is working on it: another pod would only do it again.
                        dispatch.complete(Outcome.of(Outcome.Cause.TIMEOUT, 0));
                        return fail(res, OpenAiError.timeout(target.name()
                                + " did not answer within the response timeout."));
                    }
                    dispatch.complete(Outcome.of(Outcome.Cause.ERROR, 0));
                    failed.add(target.name());
                    metrics.retried(target.name());
                    if (failed.size() >= maxAttempts) {
                        return fail(res, unreachable(failed));
                    }
                    continue;
                }
                return Relay.relay(response, res, dispatch, () -> metrics.firstToken(request.model(), model,
                        (ticker.nanos() - start) / 1e9));
            }
        }
    }

    private static Relay.Result fail(ServerResponse res, OpenAiError error) {
        ErrorResponses.send(res, error);
        return new Relay.Result(error.status(), Usage.UNKNOWN);
    }

    private static OpenAiError unreachable(Set<String> failed) {
        return OpenAiError.serviceUnavailable("No endpoint reachable; tried " + String.join(", ", failed) + ".");
    }
}
