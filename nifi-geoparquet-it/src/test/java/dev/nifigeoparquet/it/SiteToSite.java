package dev.nifigeoparquet.it;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.zip.CRC32;

/**
 * Sends FlowFiles to an input port the way a remote process group does, over site-to-site's HTTP transport: open a
 * transaction on the port, post the FlowFiles in NiFi's FlowFile codec, check the CRC32 the server computed, and
 * confirm. This is how data reaches the flows here: the standard processors that would fetch files (ListFile,
 * FetchFile) are not among the artifacts the build can fetch, while input ports and site-to-site are part of NiFi's
 * framework.
 */
final class SiteToSite {

    private static final String PROTOCOL_VERSION = "x-nifi-site-to-site-protocol-version";
    /** Response codes of the site-to-site protocol. */
    private static final int CONFIRM_TRANSACTION = 12;

    private static final int TRANSACTION_FINISHED = 13;

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final URI api;

    SiteToSite(URI api) {
        this.api = api;
    }

    /** One FlowFile to send: its attributes (filename among them) and its content. */
    record Packet(Map<String, String> attributes, byte[] content) {}

    /** Sends the packets to the input port in one transaction; returns once NiFi has committed them to the port's queue. */
    void send(String inputPortId, Packet... packets) throws IOException, InterruptedException {
        HttpResponse<String> created = http.send(
                request(api.resolve("data-transfer/input-ports/" + inputPortId + "/transactions"))
                        .POST(HttpRequest.BodyPublishers.noBody())
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        require(created, 201, "open a transaction on input port " + inputPortId);
        URI transaction = URI.create(created.headers()
                .firstValue("Location")
                .orElseThrow(() -> new IOException("NiFi opened no transaction: no Location header")));

        byte[] body = encode(packets);
        HttpResponse<String> posted = http.send(
                request(URI.create(transaction + "/flow-files"))
                        .header("Content-Type", "application/octet-stream")
                        .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        require(posted, 202, "send " + packets.length + " FlowFiles");
        CRC32 crc = new CRC32();
        crc.update(body);
        if (!posted.body().strip().equals(String.valueOf(crc.getValue()))) {
            throw new IOException("NiFi received other bytes than were sent: CRC32 " + posted.body() + " instead of "
                    + crc.getValue());
        }

        HttpResponse<String> confirmed = http.send(
                request(URI.create(transaction + "?responseCode=" + CONFIRM_TRANSACTION))
                        .header("Content-Type", "application/octet-stream")
                        .DELETE()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        require(confirmed, 200, "confirm the transaction");
        int code = NiFiApi.JSON.readTree(confirmed.body()).path("responseCode").asInt();
        if (code != TRANSACTION_FINISHED) {
            throw new IOException(
                    "NiFi did not finish the transaction: response code " + code + ", " + confirmed.body());
        }
    }

    /** NiFi's FlowFile codec: the attribute count, each key and value as length-prefixed UTF-8, the content length, the content. */
    private static byte[] encode(Packet... packets) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        for (Packet packet : packets) {
            out.writeInt(packet.attributes().size());
            for (Map.Entry<String, String> attribute : packet.attributes().entrySet()) {
                writeString(out, attribute.getKey());
                writeString(out, attribute.getValue());
            }
            out.writeLong(packet.content().length);
            out.write(packet.content());
        }
        out.flush();
        return bytes.toByteArray();
    }

    private static void writeString(DataOutputStream out, String value) throws IOException {
        byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
        out.writeInt(utf8.length);
        out.write(utf8);
    }

    private static HttpRequest.Builder request(URI uri) {
        return HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(60)).header(PROTOCOL_VERSION, "1");
    }

    private static void require(HttpResponse<String> response, int status, String what) throws IOException {
        if (response.statusCode() != status) {
            throw new IOException(
                    "Site-to-site could not " + what + ": " + response.statusCode() + " " + response.body());
        }
    }
}
