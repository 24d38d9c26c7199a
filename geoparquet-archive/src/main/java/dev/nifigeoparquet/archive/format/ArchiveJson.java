package dev.nifigeoparquet.archive.format;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;

import java.io.IOException;

/** The one JSON mapping of the format's metadata files: ISO-8601 instants, pretty-printed for operators. */
public final class ArchiveJson {

    private static final ObjectMapper MAPPER = new ObjectMapper()
            .registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .enable(SerializationFeature.INDENT_OUTPUT)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private ArchiveJson() {
    }

    public static ObjectMapper mapper() {
        return MAPPER;
    }

    public static byte[] write(Object value) {
        try {
            return MAPPER.writeValueAsBytes(value);
        } catch (IOException e) {
            throw new IllegalStateException("Cannot serialise " + value.getClass().getSimpleName(), e);
        }
    }

    public static <T> T read(byte[] json, Class<T> type, String source) throws IOException {
        try {
            return MAPPER.readValue(json, type);
        } catch (IOException e) {
            throw new IOException("Unreadable " + type.getSimpleName() + " in " + source + ": " + e.getMessage(), e);
        }
    }
}
