package dev.nifigeoparquet.archive.verify;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;

/**
 * One finding of verification.
 *
 * @param file    the file, relative to the archive root (e.g. {@code h3_cell=.../part-....parquet}); the archive root
 *                for archive-wide findings
 * @param kind    what is wrong
 * @param message a sentence for people
 * @param detail  machine-readable detail (a {@code geo} diff, the schemas), or null
 */
public record Problem(String file, ProblemKind kind, String message, JsonNode detail) {

    public Problem {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(message, "message");
    }

    public ObjectNode toJson() {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("file", file);
        node.put("kind", kind.name());
        node.put("message", message);
        if (detail != null) {
            node.set("detail", detail);
        }
        return node;
    }

    @Override
    public String toString() {
        return kind + " " + file + ": " + message;
    }
}
