package dev.nifigeoparquet.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * The file intake of a flow definition, run as on a production NiFi: ListFile ("List delta files") lists the input
 * directory, FetchFile ("Fetch delta file") reads each delta and moves it to the processed directory. A test drops a
 * delta into the input directory ({@link #drop}) and waits until FetchFile has taken it ({@link #awaitFetched}); from there
 * the FlowFile is in the flow.
 *
 * <p>The flow definitions poll every minute and take files a minute old; the tests set one second for both.
 */
final class FileIntake {

    static final String LIST = "List delta files";
    static final String FETCH = "Fetch delta file";

    /** ListFile's property as NiFi 2.7 and later name it; NiFi 2.0 to 2.6 know it only as {@code listing-strategy}. */
    static final String LISTING_STRATEGY = "Listing Strategy";

    private static final Duration FETCH_TIMEOUT = Duration.ofSeconds(60);

    private final Path input;
    private final Path processed;

    private FileIntake(Path input, Path processed) {
        this.input = input;
        this.processed = processed;
    }

    /** An intake with its input and processed directories (created here) under {@code directory}. */
    static FileIntake under(Path directory) throws IOException {
        return new FileIntake(
                Files.createDirectories(directory.resolve("incoming")),
                Files.createDirectories(directory.resolve("processed")));
    }

    Path input() {
        return input;
    }

    /** Where FetchFile moved the delta named {@code filename}. */
    Path processed(String filename) {
        return processed.resolve(filename);
    }

    /** The flow parameters that point the intake at these directories and let it take files one second old. */
    Map<String, String> parameters() {
        return Map.of(
                "delta.input.directory", input.toString(),
                "delta.processed.directory", processed.toString(),
                "delta.min.file.age", "1 sec");
    }

    /**
     * Makes the imported intake of {@code flow} runnable on this NiFi, as templates/README.md tells an operator of NiFi
     * 2.0 to 2.6: ListFile does not know its {@value #LISTING_STRATEGY} property by that name, so it is removed (the old
     * {@code listing-strategy} keeps its default, the timestamps the flow sets); then ListFile lists every second. The
     * flow's parameters must be set already: ListFile and FetchFile must then be valid.
     */
    void prepare(FlowGroup flow) throws IOException, InterruptedException {
        String errors =
                flow.processor(LIST).path("component").path("validationErrors").toString();
        assertTrue(
                errors.contains("'" + LISTING_STRATEGY + "' is not a supported property"),
                "this runtime does not know " + LISTING_STRATEGY + ": " + errors);
        Map<String, String> removed = new HashMap<>();
        removed.put(LISTING_STRATEGY, null);
        flow.setProcessorProperties(LIST, removed);
        flow.setRunSchedule(LIST, "1 sec");
        JsonNode list = requireValid(flow, LIST);
        assertEquals(
                "timestamps",
                list.path("config").path("properties").path("listing-strategy").asText(),
                "the old-named property keeps the strategy the flow sets");
        requireValid(flow, FETCH);
    }

    /** The processor named {@code name} once NiFi has validated it, failing unless it is valid. */
    static JsonNode requireValid(FlowGroup flow, String name) throws IOException, InterruptedException {
        JsonNode component = flow.api()
                .await(
                        name + " to be validated",
                        () -> flow.processor(name).path("component"),
                        processor -> !"VALIDATING"
                                .equals(processor.path("validationStatus").asText()));
        assertEquals(
                "VALID", component.path("validationStatus").asText(), name + ": " + component.path("validationErrors"));
        return component;
    }

    /**
     * Drops a delta into the input directory the way a well-behaved producer does: written under a hidden name, which
     * ListFile ignores, then renamed in one step, so ListFile never sees half a file.
     */
    void drop(String filename, byte[] content) throws IOException {
        Path partial = input.resolve("." + filename + ".partial");
        Files.write(partial, content);
        Files.move(partial, input.resolve(filename), StandardCopyOption.ATOMIC_MOVE);
    }

    /**
     * Waits until FetchFile has fetched the delta and moved it to the processed directory, which it does once the
     * FlowFile is committed to the queue behind it.
     */
    void awaitFetched(String filename) throws InterruptedException {
        Instant deadline = Instant.now().plus(FETCH_TIMEOUT);
        while (Files.exists(input.resolve(filename)) || !Files.exists(processed(filename))) {
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("ListFile and FetchFile did not take " + filename + " within " + FETCH_TIMEOUT
                        + " from " + input);
            }
            Thread.sleep(200);
        }
    }
}
