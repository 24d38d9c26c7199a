package dev.nifigeoparquet.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What NiFi recorded about FlowFiles that have left a queue, read the way an operator reads it on the canvas's Data
 * Provenance page: a provenance query through the REST API. This is how the tests see the attributes of a FlowFile that
 * a processor wrote out (PutFile writes the content, the attributes stay in provenance), and, in a cluster, which node
 * processed it ({@code clusterNodeId}).
 */
final class Provenance {

    /** At most this many events per query; the tests' flows record far fewer. */
    private static final int MAX_RESULTS = 10_000;

    private Provenance() {}

    /** One provenance event: what happened to which FlowFile where, and the FlowFile's attributes at that moment. */
    record Event(
            long eventId,
            String eventType,
            String componentId,
            String componentName,
            String flowFileUuid,
            String transitUri,
            String clusterNodeId,
            String clusterNodeAddress,
            Map<String, String> attributes)
            implements FlowFileView {

        @Override
        public String uuid() {
            return flowFileUuid;
        }
    }

    /**
     * The events of {@code eventType} (SEND, FETCH, DROP, ...) that the component with id {@code componentId} recorded,
     * on every node of a cluster, by event id (which orders one node's events by time).
     */
    static List<Event> events(NiFiApi api, String componentId, String eventType)
            throws IOException, InterruptedException {
        ObjectNode body = NiFiApi.JSON.createObjectNode();
        ObjectNode request = body.putObject("provenance").putObject("request");
        request.put("maxResults", MAX_RESULTS);
        request.put("summarize", false);
        request.put("incrementalResults", false);
        ObjectNode terms = request.putObject("searchTerms");
        terms.putObject("ProcessorID").put("value", componentId).put("inverse", false);
        terms.putObject("EventType").put("value", eventType).put("inverse", false);
        JsonNode done = api.runAsync("provenance", body, "provenance");
        List<Event> events = new ArrayList<>();
        for (JsonNode event : done.path("results").path("provenanceEvents")) {
            Map<String, String> attributes = new LinkedHashMap<>();
            for (JsonNode attribute : event.path("attributes")) {
                if (attribute.hasNonNull("value")) { // null: the attribute was removed
                    attributes.put(
                            attribute.path("name").asText(),
                            attribute.path("value").asText());
                }
            }
            events.add(new Event(
                    event.path("eventId").asLong(),
                    event.path("eventType").asText(),
                    event.path("componentId").asText(),
                    event.path("componentName").asText(),
                    event.path("flowFileUuid").asText(),
                    event.path("transitUri").asText(null),
                    event.path("clusterNodeId").asText(null),
                    event.path("clusterNodeAddress").asText(null),
                    attributes));
        }
        events.sort((a, b) -> Long.compare(a.eventId(), b.eventId()));
        return events;
    }
}
