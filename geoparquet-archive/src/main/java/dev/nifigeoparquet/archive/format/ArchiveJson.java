package dev.nifigeoparquet.archive.format;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;

/**
 * The engine's shared JSON mapper: ISO-8601 instants, pretty-printed for operators. The format's own metadata files
 * are never mapped from Java names through it; {@link DescriptorParser}, {@link CommitEntryParser} and
 * {@link TransactionDecisionParser} write and read them field by field, as docs/archive-format.md defines them.
 */
public final class ArchiveJson {

    private static final ObjectMapper MAPPER = new ObjectMapper()
            .registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .enable(SerializationFeature.INDENT_OUTPUT)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private ArchiveJson() {}

    public static ObjectMapper mapper() {
        return MAPPER;
    }
}
