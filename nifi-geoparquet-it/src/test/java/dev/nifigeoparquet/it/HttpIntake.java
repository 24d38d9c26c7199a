package dev.nifigeoparquet.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.net.ConnectException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

/**
 * A source other than the file intake in front of a flow definition's archive work, as an operator composes one: NiFi's
 * ListenHTTP added to the flow's top group and connected to the inner group's {@code deltas} input port. A test posts a
 * delta with its file name and its sequence in request headers, which ListenHTTP keeps as attributes.
 */
final class HttpIntake {

    static final String LISTEN = "Receive deltas over HTTP";

    /** The attribute, from the request header of the same name, that orders the deltas (the flow's delta.sequence). */
    static final String SEQUENCE = "sequence";

    private static final HttpClient CLIENT =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    private final URI uri;

    private HttpIntake(URI uri) {
        this.uri = uri;
    }

    /** Adds ListenHTTP to {@code flow}, connects it to the {@code deltas} port and starts it with the flow's ports. */
    static HttpIntake addTo(FlowGroup flow) throws IOException, InterruptedException {
        int port = freePort();
        flow.addProcessor(
                "org.apache.nifi.processors.standard.ListenHTTP",
                LISTEN,
                Map.of(
                        "Listening Port",
                        String.valueOf(port),
                        "Base Path",
                        "deltas",
                        "HTTP Headers to receive as Attributes (Regex)",
                        "filename|" + SEQUENCE));
        flow.connectToInnerPort(LISTEN, "success", "deltas");
        FileIntake.requireValid(flow, LISTEN);
        flow.start(LISTEN);
        return new HttpIntake(URI.create("http://127.0.0.1:" + port + "/deltas"));
    }

    /**
     * Posts a delta, retrying while the listener is still starting; ListenHTTP answers 200 once the FlowFile is committed
     * to the queue in front of the port.
     */
    void post(String filename, byte[] content, long sequence) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(uri)
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/octet-stream")
                .header("filename", filename)
                .header(SEQUENCE, Long.toString(sequence))
                .POST(HttpRequest.BodyPublishers.ofByteArray(content))
                .build();
        IOException refused = null;
        for (int attempt = 0; attempt < 50; attempt++) {
            try {
                HttpResponse<String> response = CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
                assertEquals(200, response.statusCode(), "ListenHTTP's answer: " + response.body());
                return;
            } catch (ConnectException e) {
                refused = e; // the listener's server is not up yet
                Thread.sleep(200);
            }
        }
        throw refused;
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
