package dev.homing.router.scrape;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Set;

/**
 * What the scraper learned about one endpoint besides its metrics: the models it serves (from {@code /v1/models}),
 * and how its last scrape went.
 *
 * @param models         served model and adapter ids; empty until first fetched
 * @param modelEntries   the {@code data} entries of its {@code /v1/models} answer, as the pod wrote them
 * @param lastSuccessNanos ticker time of the last good scrape, {@link Long#MIN_VALUE} if none
 * @param lastError      why the last scrape failed, or null when it succeeded
 */
public record EndpointStatus(Set<String> models, List<JsonNode> modelEntries, long modelsFetchedNanos,
                             long lastSuccessNanos, String lastError, int consecutiveFailures) {

    public static final EndpointStatus NEW = new EndpointStatus(Set.of(), List.of(), Long.MIN_VALUE, Long.MIN_VALUE, null, 0);

    public EndpointStatus {
        models = Set.copyOf(models);
        modelEntries = List.copyOf(modelEntries);
    }

    public boolean modelsKnown() {
        return modelsFetchedNanos != Long.MIN_VALUE;
    }

    public boolean everScraped() {
        return lastSuccessNanos != Long.MIN_VALUE;
    }

    EndpointStatus succeeded(long now) {
        return new EndpointStatus(models, modelEntries, modelsFetchedNanos, now, null, 0);
    }

    EndpointStatus failed(String error) {
        return new EndpointStatus(models, modelEntries, modelsFetchedNanos, lastSuccessNanos, error, consecutiveFailures + 1);
    }

    EndpointStatus withModels(Set<String> ids, List<JsonNode> entries, long now) {
        return new EndpointStatus(ids, entries, now, lastSuccessNanos, lastError, consecutiveFailures);
    }
}
