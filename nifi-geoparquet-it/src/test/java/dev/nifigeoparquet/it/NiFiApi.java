package dev.nifigeoparquet.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.function.Predicate;

/**
 * NiFi's REST API through the JDK's HttpClient, with JSON as Jackson trees: the entity shapes are NiFi's, so the
 * suite depends on no NiFi client library. Every change carries the component's current revision, fetched right
 * before, as the UI does.
 */
final class NiFiApi {

    static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration ASYNC_TIMEOUT = Duration.ofSeconds(60);
    /** How long a change refused while a node of the cluster connects is asked again. */
    static final Duration CONNECTING_TIMEOUT = Duration.ofMinutes(3);

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final URI base;
    private final String clientId = UUID.randomUUID().toString();

    NiFiApi(URI base) {
        this.base = base;
    }

    URI base() {
        return base;
    }

    JsonNode get(String path) throws IOException, InterruptedException {
        return send(request(path).GET());
    }

    /**
     * GET, or null when NiFi answers 404: in a cluster a GET is answered by every node, and a node that has not yet
     * applied a component another node just created does not know it.
     */
    JsonNode getIfKnown(String path) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(request(path).GET().build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() == 404) {
            return null;
        }
        requireSuccess("GET " + path, response.statusCode(), response.body());
        return JSON.readTree(response.body());
    }

    byte[] getBytes(String path) throws IOException, InterruptedException {
        HttpResponse<byte[]> response = http.send(request(path).GET().build(), HttpResponse.BodyHandlers.ofByteArray());
        requireSuccess("GET " + path, response.statusCode(), new String(response.body(), StandardCharsets.UTF_8));
        return response.body();
    }

    JsonNode post(String path, JsonNode body) throws IOException, InterruptedException {
        return send(request(path)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString())));
    }

    JsonNode put(String path, JsonNode body) throws IOException, InterruptedException {
        return send(request(path)
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(body.toString())));
    }

    JsonNode delete(String path) throws IOException, InterruptedException {
        return send(request(path).DELETE());
    }

    /** Uploads a flow definition as a new process group in {@code parentGroupId}: the canvas's "Upload flow definition". */
    JsonNode uploadFlowDefinition(String parentGroupId, String groupName, Path flowDefinition)
            throws IOException, InterruptedException {
        String boundary = "flow-definition-" + UUID.randomUUID();
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        for (String[] field :
                new String[][] {{"groupName", groupName}, {"positionX", "0"}, {"positionY", "0"}, {"clientId", clientId}
                }) {
            body.writeBytes(("--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + field[0] + "\"\r\n\r\n"
                            + field[1] + "\r\n")
                    .getBytes(StandardCharsets.UTF_8));
        }
        body.writeBytes(("--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\""
                        + flowDefinition.getFileName() + "\"\r\nContent-Type: application/json\r\n\r\n")
                .getBytes(StandardCharsets.UTF_8));
        body.writeBytes(Files.readAllBytes(flowDefinition));
        body.writeBytes(("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8));
        return send(request("process-groups/" + parentGroupId + "/process-groups/upload")
                .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body.toByteArray())));
    }

    /** The current revision of the entity at {@code path}, with this client's id, for a change. */
    ObjectNode revisionOf(String path) throws IOException, InterruptedException {
        ObjectNode revision = ((ObjectNode) get(path).get("revision")).deepCopy();
        revision.put("clientId", clientId);
        revision.remove("lastModifier");
        return revision;
    }

    /** Submits an asynchronous request, waits until it is complete, deletes it and returns its last state. */
    JsonNode runAsync(String submitPath, JsonNode body, String requestField) throws IOException, InterruptedException {
        JsonNode request = post(submitPath, body).get(requestField);
        String requestId = request.hasNonNull("requestId")
                ? request.get("requestId").asText()
                : request.get("id").asText();
        String requestPath = submitPath + "/" + requestId;
        JsonNode finished = await(
                "request " + requestPath,
                () -> get(requestPath).get(requestField),
                state -> state.path("complete").asBoolean(false)
                        || state.path("finished").asBoolean(false));
        delete(requestPath);
        return finished;
    }

    /** A supplier that may fail with the API's exceptions. */
    interface Call<T> {
        T call() throws IOException, InterruptedException;
    }

    /** Polls {@code call} until {@code done} accepts its answer, for at most a minute. */
    <T> T await(String what, Call<T> call, Predicate<T> done) throws IOException, InterruptedException {
        Instant deadline = Instant.now().plus(ASYNC_TIMEOUT);
        T last = call.call();
        while (!done.test(last)) {
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("Waited " + ASYNC_TIMEOUT + " for " + what + "; last seen: " + last);
            }
            Thread.sleep(200);
            last = call.call();
        }
        return last;
    }

    static String query(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(base.resolve(path)).timeout(REQUEST_TIMEOUT);
    }

    private JsonNode send(HttpRequest.Builder builder) throws IOException, InterruptedException {
        HttpRequest request = builder.build();
        Instant deadline = Instant.now().plus(CONNECTING_TIMEOUT);
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        while (response.statusCode() == 409 && refusedWhileConnecting(response.body())) {
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError(request.method() + " " + request.uri() + " was refused for "
                        + CONNECTING_TIMEOUT + " while a node was connecting: " + response.body() + "; "
                        + clusterState());
            }
            Thread.sleep(1000);
            response = http.send(request, HttpResponse.BodyHandlers.ofString());
        }
        requireSuccess(request.method() + " " + request.uri(), response.statusCode(), response.body());
        return response.body().isBlank() ? JSON.createObjectNode() : JSON.readTree(response.body());
    }

    /**
     * Whether NiFi refused a request because a node of the cluster is changing state: a node (re)connecting refuses
     * changes until it has loaded the cluster's flow (and a node the coordinator missed heartbeats from reconnects at
     * any time), and a request replicated as a node disconnects finds it gone. An operator asks again; so do the tests,
     * for at most {@link #CONNECTING_TIMEOUT}.
     */
    static boolean refusedWhileConnecting(String message) {
        return message.contains("is currently connecting") || message.contains("because the node is not connected");
    }

    /**
     * Every node as the cluster coordinator sees it, with the latest connection events of each node that is not
     * connected (NiFi names there why it disconnected or why its connection failed), for a failure's message.
     */
    String clusterState() {
        try {
            StringBuilder state = new StringBuilder("cluster:");
            for (JsonNode node : get("controller/cluster").path("cluster").path("nodes")) {
                String status = node.path("status").asText();
                state.append(' ')
                        .append(node.path("address").asText())
                        .append(':')
                        .append(node.path("apiPort").asText())
                        .append(' ')
                        .append(status);
                if (!"CONNECTED".equals(status)) {
                    JsonNode events = get("controller/cluster/nodes/"
                                    + node.path("nodeId").asText())
                            .path("node")
                            .path("events");
                    state.append(" events [");
                    for (int i = Math.max(0, events.size() - 6); i < events.size(); i++) {
                        state.append(events.get(i).path("timestamp").asText())
                                .append(' ')
                                .append(events.get(i).path("message").asText())
                                .append("; ");
                    }
                    state.append(']');
                }
            }
            return state.toString();
        } catch (IOException | RuntimeException | Error e) {
            return "cluster state unavailable: " + e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "cluster state unavailable: interrupted";
        }
    }

    private static void requireSuccess(String what, int status, String body) {
        if (status / 100 != 2) {
            throw new AssertionError(what + " answered " + status + ": " + body);
        }
    }
}
