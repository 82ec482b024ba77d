package dev.homing.router.proxy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.homing.router.scrape.EndpointCatalog;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

/** {@code GET /v1/models}: every model and adapter the pool serves, each once, in vLLM's list shape. */
public final class ModelsHandler {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final EndpointCatalog catalog;

    public ModelsHandler(EndpointCatalog catalog) {
        this.catalog = catalog;
    }

    public void handle(ServerRequest req, ServerResponse res) throws Exception {
        ObjectNode list = JSON.createObjectNode();
        list.put("object", "list");
        ArrayNode data = list.putArray("data");
        catalog.modelEntries().forEach(data::add);
        res.header(HeaderNames.CONTENT_TYPE, "application/json");
        res.send(JSON.writeValueAsBytes(list));
    }
}
