package dev.homing.router.scrape;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;

/** Per-endpoint scrape status and served models, shared by the scraper (writer) and the proxy and admin (readers). */
public final class EndpointCatalog {

    private final Map<String, EndpointStatus> statuses = new ConcurrentHashMap<>();

    public EndpointStatus status(String endpoint) {
        return statuses.getOrDefault(endpoint, EndpointStatus.NEW);
    }

    void update(String endpoint, UnaryOperator<EndpointStatus> change) {
        statuses.compute(endpoint, (k, v) -> change.apply(v == null ? EndpointStatus.NEW : v));
    }

    /** Keeps only these endpoints. */
    public void retain(Set<String> endpoints) {
        statuses.keySet().retainAll(endpoints);
    }

    /**
     * Whether the endpoint serves the model. An endpoint whose models are not known yet is given the benefit of the
     * doubt: it may serve it, and the pod itself will say 404 if not. Every endpoint serves a request naming no model
     * (null): a pool serves one base model, and a pod answers such a request (a {@code /tokenize} without a model, a
     * {@code GET /v1/responses/{id}}) with it.
     */
    public boolean serves(String endpoint, String model) {
        if (model == null) {
            return true;
        }
        EndpointStatus s = status(endpoint);
        return !s.modelsKnown() || s.models().contains(model);
    }

    /** True when some endpoint's models are known and none of them serves this model. */
    public boolean knownNotServed(String model) {
        boolean anyKnown = false;
        for (EndpointStatus s : statuses.values()) {
            if (s.modelsKnown()) {
                anyKnown = true;
                if (s.models().contains(model)) {
                    return false;
                }
            }
        }
        return anyKnown;
    }

    /** Every served model once, in the first reporting endpoint's words. */
    public List<JsonNode> modelEntries() {
        Map<String, JsonNode> byId = new LinkedHashMap<>();
        statuses.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> {
            for (JsonNode entry : e.getValue().modelEntries()) {
                byId.putIfAbsent(entry.path("id").asText(), entry);
            }
        });
        return new ArrayList<>(byId.values());
    }
}
