package dev.nifigeoparquet.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * One flow definition imported as a process group, driven the way an operator drives it on the canvas, through the
 * REST API: set its parameters, verify and enable its controller services, start its processors. For the test it
 * also adds what the canvas would not need: output ports that hold what a relationship emits, so the queues in front of
 * them show what each relationship received.
 *
 * <p>It works the same on a standalone NiFi and through any node of a {@link NiFiCluster}: NiFi replicates every change
 * to all nodes, queue listings span the nodes (each FlowFile names the node it waits on) and {@link #activityByNode}
 * shows what a processor did on each node.
 */
final class FlowGroup {

    private static final Duration IDLE_TIMEOUT = Duration.ofSeconds(90);

    /** The ports of the flow definitions' inner groups, which the flow starts with its processors. */
    static final Set<String> SHIPPED_PORTS = Set.of("deltas", "quarantine", "reports");

    private final NiFiApi api;
    private final String id;
    private final String parameterContextId;

    private FlowGroup(NiFiApi api, String id, String parameterContextId) {
        this.api = api;
        this.id = id;
        this.parameterContextId = parameterContextId;
    }

    /**
     * Uploads {@code definition} into the root group under {@code name}, with parameter contexts of its own: every context
     * of the definition renamed after the group. NiFi binds an imported group to an existing context of the same name, so
     * two imports would otherwise share their parameters, and a test's archive root would move another test's archive.
     */
    static FlowGroup upload(NiFiApi api, Path definition, String name) throws IOException, InterruptedException {
        return uploadAsShipped(api, withOwnParameterContexts(definition, name), name);
    }

    /** Uploads {@code definition} unchanged into the root group under {@code name}, as an operator does. */
    static FlowGroup uploadAsShipped(NiFiApi api, Path definition, String name)
            throws IOException, InterruptedException {
        String root = api.get("flow/process-groups/root")
                .path("processGroupFlow")
                .path("id")
                .asText();
        JsonNode group = api.uploadFlowDefinition(root, name, definition);
        return new FlowGroup(
                api,
                group.path("id").asText(),
                group.path("component").path("parameterContext").path("id").asText(null));
    }

    /** A copy of the flow definition whose parameter contexts carry {@code suffix} in their names. */
    private static Path withOwnParameterContexts(Path definition, String suffix) throws IOException {
        ObjectNode flow = (ObjectNode) NiFiApi.JSON.readTree(definition.toFile());
        ObjectNode contexts = (ObjectNode) flow.path("parameterContexts");
        ObjectNode renamed = NiFiApi.JSON.createObjectNode();
        contexts.properties().forEach(entry -> {
            ObjectNode context = (ObjectNode) entry.getValue();
            context.put("name", entry.getKey() + " (" + suffix + ")");
            ArrayNode inherited = NiFiApi.JSON.createArrayNode();
            context.path("inheritedParameterContexts")
                    .forEach(parent -> inherited.add(parent.asText() + " (" + suffix + ")"));
            context.set("inheritedParameterContexts", inherited);
            renamed.set(context.path("name").asText(), context);
        });
        flow.set("parameterContexts", renamed);
        renameContextOfEveryGroup((ObjectNode) flow.path("flowContents"), suffix);
        Path copy = Files.createTempFile("flow-definition-", ".json");
        copy.toFile().deleteOnExit();
        NiFiApi.JSON.writeValue(copy.toFile(), flow);
        return copy;
    }

    private static void renameContextOfEveryGroup(ObjectNode group, String suffix) {
        if (group.path("parameterContextName").isTextual()) {
            group.put("parameterContextName", group.path("parameterContextName").asText() + " (" + suffix + ")");
        }
        group.path("processGroups").forEach(child -> renameContextOfEveryGroup((ObjectNode) child, suffix));
    }

    String id() {
        return id;
    }

    /** The id of the group's own parameter context. */
    String parameterContextId() {
        return parameterContextId;
    }

    /** The API the group is driven through. */
    NiFiApi api() {
        return api;
    }

    /**
     * The contents of the group and of every group inside it, outermost first: processors, connections, ports, each with
     * its component and status. The flow definitions keep their archive work in an inner group.
     */
    List<JsonNode> contents() throws IOException, InterruptedException {
        List<JsonNode> contents = new ArrayList<>();
        Deque<String> pending = new ArrayDeque<>(List.of(id));
        while (!pending.isEmpty()) {
            JsonNode flow = api.get("flow/process-groups/" + pending.removeFirst())
                    .path("processGroupFlow")
                    .path("flow");
            contents.add(flow);
            flow.path("processGroups")
                    .forEach(child -> pending.add(child.path("id").asText()));
        }
        return contents;
    }

    /** The processor named {@code name} in whichever group, as the API lists it (id, component with type, bundle...). */
    JsonNode processor(String name) throws IOException, InterruptedException {
        return named(every("processors"), name);
    }

    /** The id of the processor named {@code name}. */
    String processorId(String name) throws IOException, InterruptedException {
        return processor(name).path("id").asText();
    }

    List<JsonNode> processors() throws IOException, InterruptedException {
        return every("processors");
    }

    /** The components of one kind ("processors", "connections", "inputPorts", ...) of every group. */
    private List<JsonNode> every(String kind) throws IOException, InterruptedException {
        List<JsonNode> components = new ArrayList<>();
        for (JsonNode flow : contents()) {
            flow.path(kind).forEach(components::add);
        }
        return components;
    }

    List<JsonNode> services() throws IOException, InterruptedException {
        List<JsonNode> services = new ArrayList<>();
        api.get("flow/process-groups/" + id
                        + "/controller-services?includeAncestorGroups=false&includeDescendantGroups=true")
                .path("controllerServices")
                .forEach(services::add);
        return services;
    }

    JsonNode service(String name) throws IOException, InterruptedException {
        for (JsonNode service : services()) {
            if (service.path("component").path("name").asText().equals(name)) {
                return api.get("controller-services/" + service.path("id").asText());
            }
        }
        throw new AssertionError("No controller service named '" + name + "' in the group");
    }

    /**
     * Sets parameters as the parameter context dialog does (an asynchronous update request per context): each in the
     * context that defines it, the group's own or one it inherits, and a parameter neither defines in the group's own.
     */
    void setParameters(Map<String, String> values) throws IOException, InterruptedException {
        Map<String, String> owners = new LinkedHashMap<>();
        for (JsonNode entry :
                parameterContext(parameterContextId).path("component").path("parameters")) {
            JsonNode parameter = entry.path("parameter");
            if (parameter.path("inherited").asBoolean(false)) {
                owners.put(
                        parameter.path("name").asText(),
                        parameter.path("parameterContext").path("id").asText());
            }
        }
        Map<String, Map<String, String>> byContext = new LinkedHashMap<>();
        values.forEach((name, value) -> byContext
                .computeIfAbsent(owners.getOrDefault(name, parameterContextId), context -> new LinkedHashMap<>())
                .put(name, value));
        for (Map.Entry<String, Map<String, String>> context : byContext.entrySet()) {
            setParameters(context.getKey(), context.getValue());
        }
    }

    private void setParameters(String contextId, Map<String, String> values) throws IOException, InterruptedException {
        String path = "parameter-contexts/" + contextId;
        ArrayNode parameters = NiFiApi.JSON.createArrayNode();
        values.forEach((name, value) -> parameters
                .addObject()
                .putObject("parameter")
                .put("name", name)
                .put("sensitive", false)
                .put("value", value));
        Instant deadline = Instant.now().plus(NiFiApi.CONNECTING_TIMEOUT);
        while (true) {
            JsonNode current = parameterContext(contextId);
            ObjectNode body = NiFiApi.JSON.createObjectNode();
            body.set("revision", api.revisionOf(path));
            body.put("id", contextId);
            ObjectNode component = body.putObject("component");
            component.put("id", contextId);
            component.set("parameters", parameters);
            // An update names the contexts it inherits from, or NiFi takes it to inherit none any more.
            component.set(
                    "inheritedParameterContexts", current.path("component").path("inheritedParameterContexts"));
            JsonNode result = api.runAsync(path + "/update-requests", body, "request");
            String failure = result.path("failureReason").isTextual()
                    ? result.path("failureReason").asText()
                    : null;
            if (failure == null) {
                return;
            }
            // The update's replicated steps are refused, and nothing is changed, while a node connects.
            if (!NiFiApi.refusedWhileConnecting(failure) || Instant.now().isAfter(deadline)) {
                throw new AssertionError(
                        "Updating parameters " + values.keySet() + " failed: " + failure + "; " + api.clusterState());
            }
            Thread.sleep(1000);
        }
    }

    /**
     * Adds a controller service of {@code type}, from the bundle {@code [group, artifact, version]}, to the group of the
     * flow's service {@code besideService}, with these properties; returns its id.
     */
    String addServiceBeside(
            String besideService, String type, List<String> bundle, String name, Map<String, String> properties)
            throws IOException, InterruptedException {
        String groupId =
                service(besideService).path("component").path("parentGroupId").asText();
        ObjectNode body = newComponent();
        ObjectNode component = (ObjectNode) body.get("component");
        component.put("type", type).put("name", name);
        component
                .putObject("bundle")
                .put("group", bundle.get(0))
                .put("artifact", bundle.get(1))
                .put("version", bundle.get(2));
        ObjectNode values = component.putObject("properties");
        properties.forEach(values::put);
        return api.post("process-groups/" + groupId + "/controller-services", body)
                .path("id")
                .asText();
    }

    /**
     * A parameter context, once every node of a cluster knows it: a context an upload through one node created may not
     * be on the other yet, which then answers 404.
     */
    private JsonNode parameterContext(String contextId) throws IOException, InterruptedException {
        return api.await(
                "parameter context " + contextId + " on every node",
                () -> api.getIfKnown("parameter-contexts/" + contextId),
                Objects::nonNull);
    }

    /** Sets or (with a null value) removes properties of a controller service. */
    void setServiceProperties(String serviceName, Map<String, String> properties)
            throws IOException, InterruptedException {
        String serviceId = service(serviceName).path("id").asText();
        ObjectNode body = NiFiApi.JSON.createObjectNode();
        body.set("revision", api.revisionOf("controller-services/" + serviceId));
        ObjectNode component = body.putObject("component");
        component.put("id", serviceId);
        ObjectNode values = component.putObject("properties");
        properties.forEach(values::put);
        api.put("controller-services/" + serviceId, body);
    }

    /**
     * "Verify Properties" on every controller service of the group, as an operator does before enabling them: fails
     * on a step NiFi or the service reports FAILED, and on a service that reports no step that SUCCEEDED.
     */
    void verifyServices() throws IOException, InterruptedException {
        for (JsonNode service : services()) {
            String name = service.path("component").path("name").asText();
            List<JsonNode> steps = verifyService(name);
            List<JsonNode> failed = steps.stream()
                    .filter(step -> "FAILED".equals(step.path("outcome").asText()))
                    .toList();
            if (!failed.isEmpty()
                    || steps.stream()
                            .noneMatch(step ->
                                    "SUCCESSFUL".equals(step.path("outcome").asText()))) {
                throw new AssertionError("Verifying controller service '" + name + "' gave " + steps);
            }
        }
    }

    /** "Verify Properties" on a disabled controller service: each step's outcome and explanation. */
    private List<JsonNode> verifyService(String serviceName) throws IOException, InterruptedException {
        JsonNode service = service(serviceName);
        String serviceId = service.path("id").asText();
        ObjectNode body = NiFiApi.JSON.createObjectNode();
        ObjectNode request = body.putObject("request");
        request.put("componentId", serviceId);
        request.set("properties", service.path("component").path("properties"));
        request.putObject("attributes");
        JsonNode done =
                api.runAsync("controller-services/" + serviceId + "/config/verification-requests", body, "request");
        if (done.path("failureReason").isTextual()) {
            throw new AssertionError("Verifying controller service '" + serviceName + "' failed: "
                    + done.path("failureReason").asText());
        }
        List<JsonNode> results = new ArrayList<>();
        done.path("results").forEach(results::add);
        return results;
    }

    /** Enables every controller service of the group and waits until all are enabled. */
    void enableServices() throws IOException, InterruptedException {
        ObjectNode body = NiFiApi.JSON.createObjectNode().put("id", id).put("state", "ENABLED");
        api.put("flow/process-groups/" + id + "/controller-services", body);
        api.await(
                "the controller services of group " + id + " to be enabled",
                this::services,
                services -> services.stream()
                        .allMatch(s -> "ENABLED"
                                .equals(s.path("component").path("state").asText())));
    }

    /** Sets properties of a stopped processor. */
    void setProcessorProperties(String processorName, Map<String, String> properties)
            throws IOException, InterruptedException {
        String processorId = processor(processorName).path("id").asText();
        ObjectNode body = NiFiApi.JSON.createObjectNode();
        body.set("revision", api.revisionOf("processors/" + processorId));
        ObjectNode component = body.putObject("component");
        component.put("id", processorId);
        ObjectNode values = component.putObject("config").putObject("properties");
        properties.forEach(values::put);
        api.put("processors/" + processorId, body);
    }

    /**
     * Sets how often a stopped timer-driven processor runs (its Run Schedule), for example to let ListFile poll every
     * second instead of the flow definition's minute.
     */
    void setRunSchedule(String processorName, String period) throws IOException, InterruptedException {
        String processorId = processorId(processorName);
        ObjectNode body = NiFiApi.JSON.createObjectNode();
        body.set("revision", api.revisionOf("processors/" + processorId));
        ObjectNode component = body.putObject("component");
        component.put("id", processorId);
        component.putObject("config").put("schedulingPeriod", period);
        api.put("processors/" + processorId, body);
    }

    /** Sets how long a stopped processor penalises a FlowFile: the first wait of NiFi's retry of a relationship. */
    void setPenalty(String processorName, String duration) throws IOException, InterruptedException {
        String processorId = processorId(processorName);
        ObjectNode body = NiFiApi.JSON.createObjectNode();
        body.set("revision", api.revisionOf("processors/" + processorId));
        ObjectNode component = body.putObject("component");
        component.put("id", processorId);
        component.putObject("config").put("penaltyDuration", duration);
        api.put("processors/" + processorId, body);
    }

    void setAutoTerminated(String processorName, Collection<String> relationships)
            throws IOException, InterruptedException {
        String processorId = processor(processorName).path("id").asText();
        ObjectNode body = NiFiApi.JSON.createObjectNode();
        body.set("revision", api.revisionOf("processors/" + processorId));
        ObjectNode component = body.putObject("component");
        component.put("id", processorId);
        ArrayNode terminated = component.putObject("config").putArray("autoTerminatedRelationships");
        relationships.forEach(terminated::add);
        api.put("processors/" + processorId, body);
    }

    /**
     * Connects {@code relationship} of the processor named {@code from} to a new output port that is never started,
     * so what the relationship emits stays queued where the test can list it; returns the connection's id.
     */
    String observe(String from, String relationship) throws IOException, InterruptedException {
        JsonNode processor = processor(from);
        String groupId = processor.path("component").path("parentGroupId").asText();
        ObjectNode body = newComponent();
        ((ObjectNode) body.get("component")).put("name", from + " " + relationship);
        String portId = api.post("process-groups/" + groupId + "/output-ports", body)
                .path("id")
                .asText();
        return connect(
                groupId, processor.path("id").asText(), "PROCESSOR", portId, "OUTPUT_PORT", List.of(relationship));
    }

    /**
     * Adds a processor of {@code type} to the top of the group, as an operator drags one onto the canvas, with the
     * properties given; returns its id.
     */
    String addProcessor(String type, String name, Map<String, String> properties)
            throws IOException, InterruptedException {
        ObjectNode body = newComponent();
        ObjectNode component = (ObjectNode) body.get("component");
        component.put("type", type).put("name", name);
        ObjectNode values = component.putObject("config").putObject("properties");
        properties.forEach(values::put);
        return api.post("process-groups/" + id + "/processors", body).path("id").asText();
    }

    /**
     * Connects {@code relationship} of the processor named {@code from}, at the top of the group, to the input port named
     * {@code port} of an inner group: what an operator does to put the archive work behind another source.
     */
    String connectToInnerPort(String from, String relationship, String port) throws IOException, InterruptedException {
        JsonNode input = named(every("inputPorts"), port);
        ObjectNode body = newComponent();
        ObjectNode component = (ObjectNode) body.get("component");
        component
                .putObject("source")
                .put("id", processorId(from))
                .put("groupId", id)
                .put("type", "PROCESSOR");
        component
                .putObject("destination")
                .put("id", input.path("id").asText())
                .put("groupId", input.path("component").path("parentGroupId").asText())
                .put("type", "INPUT_PORT");
        component.putArray("selectedRelationships").add(relationship);
        return api.post("process-groups/" + id + "/connections", body)
                .path("id")
                .asText();
    }

    /** The connection that carries {@code relationship} out of the processor named {@code from}. */
    String connection(String from, String relationship) throws IOException, InterruptedException {
        String sourceId = processor(from).path("id").asText();
        for (JsonNode connection : every("connections")) {
            JsonNode component = connection.path("component");
            if (component.path("source").path("id").asText().equals(sourceId)) {
                for (JsonNode selected : component.path("selectedRelationships")) {
                    if (selected.asText().equals(relationship)) {
                        return connection.path("id").asText();
                    }
                }
            }
        }
        throw new AssertionError("No connection carries '" + relationship + "' out of '" + from + "'");
    }

    /** The connection that carries FlowFiles into the processor named {@code to}: its input queue. */
    String connectionInto(String to) throws IOException, InterruptedException {
        String destinationId = processorId(to);
        for (JsonNode connection : every("connections")) {
            if (connection
                    .path("component")
                    .path("destination")
                    .path("id")
                    .asText()
                    .equals(destinationId)) {
                return connection.path("id").asText();
            }
        }
        throw new AssertionError("No connection leads into '" + to + "'");
    }

    /** Sets how a connection whose ends are stopped spreads its FlowFiles over a cluster's nodes (ROUND_ROBIN, ...). */
    void setLoadBalanceStrategy(String connectionId, String strategy) throws IOException, InterruptedException {
        ObjectNode body = NiFiApi.JSON.createObjectNode();
        body.set("revision", api.revisionOf("connections/" + connectionId));
        ObjectNode component = body.putObject("component");
        component.put("id", connectionId);
        component.put("loadBalanceStrategy", strategy);
        api.put("connections/" + connectionId, body);
    }

    void start(String... processorNames) throws IOException, InterruptedException {
        for (String name : processorNames) {
            setRunStatus("processors/" + processor(name).path("id").asText(), "RUNNING");
        }
    }

    /**
     * Starts the ports the flow definition ships, which carry FlowFiles into and out of its inner group; a test that
     * starts only part of the flow leaves them stopped, so FlowFiles wait where that part put them.
     */
    void startPorts() throws IOException, InterruptedException {
        for (String kind : List.of("inputPorts", "outputPorts")) {
            for (JsonNode port : every(kind)) {
                if (SHIPPED_PORTS.contains(port.path("component").path("name").asText())
                        && !"RUNNING"
                                .equals(port.path("component").path("state").asText())) {
                    String path = (kind.equals("inputPorts") ? "input-ports/" : "output-ports/")
                            + port.path("id").asText();
                    setRunStatus(path, "RUNNING");
                }
            }
        }
    }

    void stop(String... processorNames) throws IOException, InterruptedException {
        for (String name : processorNames) {
            setRunStatus("processors/" + processor(name).path("id").asText(), "STOPPED");
        }
    }

    /**
     * Stops every component of the group (the canvas's "Stop" on the group), as a test does when it is done with a flow:
     * its ListFile would otherwise keep polling a directory the test removes, and it would run again after a restart.
     */
    void stopAll() throws IOException, InterruptedException {
        api.put(
                "flow/process-groups/" + id,
                NiFiApi.JSON.createObjectNode().put("id", id).put("state", "STOPPED"));
    }

    /** Runs a stopped processor once, whatever its schedule (the canvas's "Run Once"). */
    void runOnce(String processorName) throws IOException, InterruptedException {
        setRunStatus("processors/" + processor(processorName).path("id").asText(), "RUN_ONCE");
    }

    /**
     * Waits until nothing is queued in front of the processors named (retries and penalised FlowFiles included) and no
     * thread of the group is active, twice in a row: the work fed in has gone as far as it can.
     */
    void awaitIdle(String... processorNames) throws IOException, InterruptedException {
        Set<String> watched = Set.of(processorNames);
        Instant deadline = Instant.now().plus(IDLE_TIMEOUT);
        int quietPolls = 0;
        List<String> waiting = List.of();
        while (quietPolls < 2) {
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError(
                        "The flow did not come to rest within " + IDLE_TIMEOUT + "; still queued: " + waiting);
            }
            Thread.sleep(300);
            JsonNode snapshot = api.get("flow/process-groups/" + id + "/status?recursive=true")
                    .path("processGroupStatus")
                    .path("aggregateSnapshot");
            waiting = new ArrayList<>();
            for (JsonNode connection : connectionStatuses(snapshot)) {
                String destination = connection.path("destinationName").asText();
                if ((watched.contains(destination) || SHIPPED_PORTS.contains(destination))
                        && connection.path("flowFilesQueued").asInt() > 0) {
                    waiting.add(connection.path("sourceName").asText() + " -["
                            + connection.path("name").asText() + "]-> "
                            + connection.path("destinationName").asText() + ": "
                            + connection.path("flowFilesQueued").asInt() + " ("
                            + connection.path("flowFileAvailability").asText() + ")");
                }
            }
            boolean quiet =
                    waiting.isEmpty() && snapshot.path("activeThreadCount").asInt() == 0;
            quietPolls = quiet ? quietPolls + 1 : 0;
        }
    }

    /** The status of every connection of a group's status snapshot and of the groups inside it. */
    private static List<JsonNode> connectionStatuses(JsonNode groupSnapshot) {
        List<JsonNode> connections = new ArrayList<>();
        groupSnapshot
                .path("connectionStatusSnapshots")
                .forEach(entry -> connections.add(entry.path("connectionStatusSnapshot")));
        for (JsonNode child : groupSnapshot.path("processGroupStatusSnapshots")) {
            connections.addAll(connectionStatuses(child.path("processGroupStatusSnapshot")));
        }
        return connections;
    }

    /**
     * A FlowFile waiting in a queue: its attributes, its content on request, and in a cluster the node it waits on
     * ({@code clusterNodeId} and {@code clusterNodeAddress}, null on a standalone NiFi).
     */
    record Queued(
            String connectionId,
            String uuid,
            Map<String, String> attributes,
            String clusterNodeId,
            String clusterNodeAddress)
            implements FlowFileView {}

    /** How many FlowFiles wait in the connection now, over all nodes of a cluster. */
    int queuedCount(String connectionId) throws IOException, InterruptedException {
        return api.get("flow/connections/" + connectionId + "/status")
                .path("connectionStatus")
                .path("aggregateSnapshot")
                .path("flowFilesQueued")
                .asInt();
    }

    /**
     * What waits in the connection (NiFi lists at most the first 100, over all nodes of a cluster), oldest first, with
     * each FlowFile's attributes.
     */
    List<Queued> queued(String connectionId) throws IOException, InterruptedException {
        JsonNode listing = api.runAsync(
                "flowfile-queues/" + connectionId + "/listing-requests",
                NiFiApi.JSON.createObjectNode(),
                "listingRequest");
        List<Queued> flowFiles = new ArrayList<>();
        for (JsonNode summary : listing.path("flowFileSummaries")) {
            String uuid = summary.path("uuid").asText();
            String nodeId = summary.path("clusterNodeId").asText(null);
            JsonNode details = api.get("flowfile-queues/" + connectionId + "/flowfiles/" + uuid + onNode(nodeId))
                    .path("flowFile");
            Map<String, String> attributes = new LinkedHashMap<>();
            details.path("attributes")
                    .properties()
                    .forEach(entry ->
                            attributes.put(entry.getKey(), entry.getValue().asText(null)));
            flowFiles.add(new Queued(
                    connectionId,
                    uuid,
                    attributes,
                    nodeId,
                    summary.path("clusterNodeAddress").asText(null)));
        }
        return flowFiles;
    }

    byte[] content(Queued flowFile) throws IOException, InterruptedException {
        return api.getBytes("flowfile-queues/" + flowFile.connectionId() + "/flowfiles/" + flowFile.uuid() + "/content"
                + onNode(flowFile.clusterNodeId()));
    }

    /** The query that sends a request about one FlowFile to the node holding it; none on a standalone NiFi. */
    private static String onNode(String clusterNodeId) {
        return clusterNodeId == null ? "" : "?clusterNodeId=" + NiFiApi.query(clusterNodeId);
    }

    /** What a processor did on one node of a cluster over the last five minutes (NiFi's status window). */
    record NodeActivity(
            String clusterNodeId,
            String address,
            int flowFilesIn,
            int flowFilesOut,
            int tasks,
            int activeThreads,
            String runStatus) {}

    /** What the processor named {@code processorName} did on each node: where FlowFiles were processed. */
    List<NodeActivity> activityByNode(String processorName) throws IOException, InterruptedException {
        JsonNode status = api.get("flow/processors/" + processorId(processorName) + "/status?nodewise=true")
                .path("processorStatus");
        List<NodeActivity> nodes = new ArrayList<>();
        for (JsonNode node : status.path("nodeSnapshots")) {
            JsonNode snapshot = node.path("statusSnapshot");
            nodes.add(new NodeActivity(
                    node.path("nodeId").asText(),
                    node.path("address").asText() + ":" + node.path("apiPort").asInt(),
                    snapshot.path("flowFilesIn").asInt(),
                    snapshot.path("flowFilesOut").asInt(),
                    snapshot.path("taskCount").asInt(),
                    snapshot.path("activeThreadCount").asInt(),
                    snapshot.path("runStatus").asText()));
        }
        return nodes;
    }

    /** How many threads run the processor named {@code processorName} now, over all nodes of a cluster. */
    int activeThreads(String processorName) throws IOException, InterruptedException {
        return statusSnapshot(processorName).path("activeThreadCount").asInt();
    }

    /**
     * How many tasks of the processor named {@code processorName} still run, those NiFi counts as terminated included,
     * over all nodes of a cluster.
     */
    int tasksRunning(String processorName) throws IOException, InterruptedException {
        JsonNode snapshot = statusSnapshot(processorName);
        return snapshot.path("activeThreadCount").asInt()
                + snapshot.path("terminatedThreadCount").asInt();
    }

    private JsonNode statusSnapshot(String processorName) throws IOException, InterruptedException {
        return api.get("flow/processors/" + processorId(processorName) + "/status")
                .path("processorStatus")
                .path("aggregateSnapshot");
    }

    /**
     * Terminates the threads of a stopped processor that are still running (the canvas's "Terminate"): NiFi interrupts
     * each and rolls its session back.
     */
    void terminate(String processorName) throws IOException, InterruptedException {
        api.delete("processors/" + processorId(processorName) + "/threads");
    }

    /** A bulletin: the component that raised it, its level and message. */
    record Bulletin(long id, String sourceName, String level, String message) {}

    /** The bulletins of this group's components newer than {@code afterId} (-1 for all NiFi still holds). */
    List<Bulletin> bulletins(long afterId) throws IOException, InterruptedException {
        List<String> groupIds = new ArrayList<>(List.of(id));
        for (JsonNode child : every("processGroups")) {
            groupIds.add(child.path("id").asText());
        }
        // NiFi matches a bulletin's own group against the pattern, so an inner group's components need its id.
        String groups = NiFiApi.query(String.join("|", groupIds));
        JsonNode board = api.get("flow/bulletin-board?groupId=" + groups + "&after=" + afterId + "&limit=500")
                .path("bulletinBoard");
        List<Bulletin> bulletins = new ArrayList<>();
        for (JsonNode entry : board.path("bulletins")) {
            JsonNode bulletin = entry.path("bulletin");
            bulletins.add(new Bulletin(
                    entry.path("id").asLong(),
                    bulletin.path("sourceName").asText(),
                    bulletin.path("level").asText(),
                    bulletin.path("message").asText()));
        }
        return bulletins;
    }

    /** The id of the newest bulletin NiFi holds for this group, -1 when none: a mark to ask for newer ones. */
    long lastBulletinId() throws IOException, InterruptedException {
        return bulletins(-1).stream().mapToLong(Bulletin::id).max().orElse(-1);
    }

    private String connect(
            String groupId,
            String sourceId,
            String sourceType,
            String destinationId,
            String destinationType,
            List<String> relationships)
            throws IOException, InterruptedException {
        ObjectNode body = newComponent();
        ObjectNode component = (ObjectNode) body.get("component");
        component
                .putObject("source")
                .put("id", sourceId)
                .put("groupId", groupId)
                .put("type", sourceType);
        component
                .putObject("destination")
                .put("id", destinationId)
                .put("groupId", groupId)
                .put("type", destinationType);
        ArrayNode selected = component.putArray("selectedRelationships");
        relationships.forEach(selected::add);
        return api.post("process-groups/" + groupId + "/connections", body)
                .path("id")
                .asText();
    }

    private void setRunStatus(String componentPath, String state) throws IOException, InterruptedException {
        ObjectNode body = NiFiApi.JSON.createObjectNode();
        body.set("revision", api.revisionOf(componentPath));
        body.put("state", state);
        api.put(componentPath + "/run-status", body);
    }

    private static ObjectNode newComponent() {
        ObjectNode body = NiFiApi.JSON.createObjectNode();
        body.putObject("revision").put("version", 0);
        body.putObject("component");
        return body;
    }

    private static JsonNode named(Iterable<JsonNode> components, String name) {
        for (JsonNode component : components) {
            if (component.path("component").path("name").asText().equals(name)) {
                return component;
            }
        }
        throw new AssertionError("No component named '" + name + "' in the group");
    }
}
