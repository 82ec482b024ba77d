package dev.homing.router.proxy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.homing.router.scrape.EndpointCatalog;

/** {@code GET /v1/models}: every model and adapter the pool serves, each once, in vLLM's list shape. */
final class ModelsHandler {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final EndpointCatalog catalog;

    ModelsHandler(EndpointCatalog catalog) {
        this.catalog = catalog;
    }

    byte[] json() {
        ObjectNode list = JSON.createObjectNode();
        list.put("object", "list");
        ArrayNode data = list.putArray("data");
        catalog.modelEntries().forEach(data::add);
        try {
            return JSON.writeValueAsBytes(list);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e); // a tree of plain nodes always writes
        }
    }
}
