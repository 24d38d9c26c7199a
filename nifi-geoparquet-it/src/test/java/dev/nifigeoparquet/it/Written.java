package dev.nifigeoparquet.it;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A FlowFile that a flow's PutFile wrote into its directory, as an operator finds it: the file on disk, which the flow
 * definitions lay out as {@code <directory>/<yyyy-MM-dd>/<FlowFile uuid>/<filename>} (the quarantine, the reports), and
 * the attributes it had when written ({@code error.message} among them), which PutFile's SEND provenance event keeps.
 */
record Written(String uuid, Path file, Map<String, String> attributes) implements FlowFileView {

    private static final Pattern DATE = Pattern.compile("\\d{4}-\\d{2}-\\d{2}");

    @Override
    public String toString() {
        return file + " " + attributes;
    }

    /** What the file holds: the FlowFile's content as PutFile wrote it. */
    byte[] content() throws IOException {
        return Files.readAllBytes(file);
    }

    /** The file's name, which PutFile takes from the FlowFile's {@code filename}. */
    String filename() {
        return file.getFileName().toString();
    }

    /**
     * Every FlowFile the PutFile named {@code putFileName} in {@code flow} wrote under {@code directory}, each with its
     * attributes. Fails when a file lies outside the {@code <date>/<uuid>/<filename>} layout, when a file has no SEND event
     * or an event no file, and when the two disagree on the file name: the disk and provenance tell one story.
     */
    static List<Written> in(FlowGroup flow, String putFileName, Path directory)
            throws IOException, InterruptedException {
        Map<String, Provenance.Event> sent = new HashMap<>();
        for (Provenance.Event event : Provenance.events(flow.api(), flow.processorId(putFileName), "SEND")) {
            Path target = Path.of(URI.create(event.transitUri()));
            if (target.startsWith(directory)) {
                sent.put(event.flowFileUuid(), event);
            }
        }
        List<Written> written = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        if (Files.isDirectory(directory)) {
            try (Stream<Path> paths = Files.walk(directory)) {
                for (Path file : paths.filter(Files::isRegularFile).sorted().toList()) {
                    Path relative = directory.relativize(file);
                    if (relative.getNameCount() != 3
                            || !DATE.matcher(relative.getName(0).toString()).matches()) {
                        throw new AssertionError(putFileName + " wrote " + file + " outside <date>/<uuid>/<filename>");
                    }
                    String uuid = relative.getName(1).toString();
                    Provenance.Event event = sent.get(uuid);
                    if (event == null) {
                        throw new AssertionError("No SEND event of " + putFileName + " for " + file);
                    }
                    if (!file.getFileName().toString().equals(event.attribute("filename"))
                            || !Path.of(URI.create(event.transitUri())).equals(file)) {
                        throw new AssertionError(file + " is not what " + putFileName + " reported sending: " + event);
                    }
                    seen.add(uuid);
                    written.add(new Written(uuid, file, event.attributes()));
                }
            }
        }
        Set<String> missing = new HashSet<>(sent.keySet());
        missing.removeAll(seen);
        if (!missing.isEmpty()) {
            throw new AssertionError(
                    putFileName + " reported sending FlowFiles " + missing + " that are not under " + directory);
        }
        return written;
    }
}
