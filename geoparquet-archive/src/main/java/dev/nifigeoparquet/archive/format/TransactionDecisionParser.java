package dev.nifigeoparquet.archive.format;

import dev.nifigeoparquet.archive.error.ArchiveFormatException;
import dev.nifigeoparquet.archive.error.UnsupportedFormatVersionException;

/**
 * The JSON of a transaction's decision record ({@code _geoparquet_archive/txn/<id>.json}, docs/archive-format.md,
 * section 5.9). The field names are the format's, written out here; {@code src/test/resources/golden/} pins the bytes.
 */
public final class TransactionDecisionParser {

    private static final String WHAT = "transaction decision";

    /** Optional: absent in decisions written before it was recorded, meaning version 1. */
    private static final String FORMAT_VERSION = "formatVersion";

    private static final String TRANSACTION = "transaction";
    private static final String OPERATION_ID = "operationId";
    private static final String OUTCOME = "outcome";
    private static final String DECIDED_AT = "decidedAt";
    private static final String PARTICIPANTS = "participants";

    private TransactionDecisionParser() {}

    /** The decision's file content: fields in the order of section 5.9, pretty-printed, without a final newline. */
    public static byte[] toJson(TransactionDecision decision) {
        return JsonFields.write(generator -> {
            generator.writeStartObject();
            generator.writeNumberField(FORMAT_VERSION, TransactionDecision.FORMAT_VERSION);
            generator.writeStringField(TRANSACTION, decision.transaction());
            generator.writeStringField(OPERATION_ID, decision.operationId());
            generator.writeStringField(OUTCOME, decision.outcome().name());
            generator.writeStringField(DECIDED_AT, decision.decidedAt().toString());
            JsonFields.writeStrings(generator, PARTICIPANTS, decision.participants());
            generator.writeEndObject();
        });
    }

    /**
     * Reads a decision. Whether it belongs where it was found (its {@code transaction} against its file name) is the
     * caller's check.
     *
     * @param file the decision's location, named in every error
     * @throws UnsupportedFormatVersionException when it was written under a newer format version
     * @throws ArchiveFormatException            when it does not follow the format, naming the field
     */
    public static TransactionDecision fromJson(byte[] json, String file) throws ArchiveFormatException {
        JsonFields fields = JsonFields.parse(json, WHAT, file);
        fields.formatVersion(FORMAT_VERSION, "The " + WHAT, 1, TransactionDecision.FORMAT_VERSION);
        try {
            return new TransactionDecision(
                    fields.requiredString(TRANSACTION),
                    fields.requiredString(OPERATION_ID),
                    fields.requiredEnum(OUTCOME, TransactionDecision.Outcome.class),
                    fields.requiredInstant(DECIDED_AT),
                    fields.requiredStrings(PARTICIPANTS));
        } catch (IllegalArgumentException invalid) {
            throw fields.invalid("The " + WHAT, invalid);
        }
    }
}
