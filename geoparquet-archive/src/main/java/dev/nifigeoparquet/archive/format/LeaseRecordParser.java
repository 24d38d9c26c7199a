package dev.nifigeoparquet.archive.format;

import dev.nifigeoparquet.archive.error.ArchiveFormatException;
import dev.nifigeoparquet.archive.error.UnsupportedFormatVersionException;

/**
 * The JSON of a lease record ({@code _geoparquet_archive/leases/<lease>/<version>.json}, docs/archive-format.md,
 * section 5.12). The field names are the format's, written out here.
 */
public final class LeaseRecordParser {

    private static final String WHAT = "lease record";

    private static final String FORMAT_VERSION = "formatVersion";
    private static final String LEASE = "lease";
    private static final String VERSION = "version";
    private static final String HOLDER = "holder";
    private static final String STATE = "state";
    private static final String ACQUIRED_AT = "acquiredAt";
    private static final String EXPIRES_AT = "expiresAt";

    private LeaseRecordParser() {}

    /** The record's file content: fields in the order of section 5.12, pretty-printed, without a final newline. */
    public static byte[] toJson(LeaseRecord record) {
        return JsonFields.write(generator -> {
            generator.writeStartObject();
            generator.writeNumberField(FORMAT_VERSION, LeaseRecord.FORMAT_VERSION);
            generator.writeStringField(LEASE, record.lease());
            generator.writeNumberField(VERSION, record.version());
            generator.writeStringField(HOLDER, record.holder());
            generator.writeStringField(STATE, record.state().name());
            generator.writeStringField(ACQUIRED_AT, record.acquiredAt().toString());
            generator.writeStringField(EXPIRES_AT, record.expiresAt().toString());
            generator.writeEndObject();
        });
    }

    /**
     * Reads a record. Whether it belongs where it was found (its lease and version against its path) is the caller's
     * check.
     *
     * @throws UnsupportedFormatVersionException when it was written under a newer format version
     * @throws ArchiveFormatException            when it does not follow the format, naming the field
     */
    public static LeaseRecord fromJson(byte[] json, String file) throws ArchiveFormatException {
        JsonFields fields = JsonFields.parse(json, WHAT, file);
        fields.formatVersion(FORMAT_VERSION, "The " + WHAT, 0, LeaseRecord.FORMAT_VERSION);
        try {
            return new LeaseRecord(
                    fields.requiredString(LEASE),
                    fields.requiredLong(VERSION),
                    fields.requiredString(HOLDER),
                    fields.requiredEnum(STATE, LeaseRecord.State.class),
                    fields.requiredInstant(ACQUIRED_AT),
                    fields.requiredInstant(EXPIRES_AT));
        } catch (IllegalArgumentException invalid) {
            throw fields.invalid("The " + WHAT, invalid);
        }
    }
}
