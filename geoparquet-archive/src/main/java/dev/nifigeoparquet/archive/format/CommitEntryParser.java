package dev.nifigeoparquet.archive.format;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.nifigeoparquet.archive.error.ArchiveFormatException;
import dev.nifigeoparquet.archive.error.UnsupportedFormatVersionException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The JSON of a commit entry ({@code _geoparquet_archive/log/<cell>/<version>.json}, docs/archive-format.md,
 * section 5.2) and of the records it holds: its files, its operations and their row changes. The field names are the
 * format's, written out here; {@code src/test/resources/golden/} pins the bytes, entries of every age included.
 */
public final class CommitEntryParser {

    private static final String WHAT = "commit entry";

    private static final String FORMAT_VERSION = "formatVersion";
    private static final String CELL = "cell";
    private static final String VERSION = "version";
    private static final String OPERATION_ID = "operationId";
    private static final String OPERATION_TYPE = "operationType";
    private static final String COMMITTED_AT = "committedAt";
    private static final String FILES = "files";
    private static final String ADDED = "added";
    private static final String REMOVED = "removed";
    private static final String ROW_COUNT = "rowCount";
    private static final String RECENT_OPERATION_IDS = "recentOperationIds";
    /** Null for a plain commit; absent in entries written before transactions existed, meaning the same. */
    private static final String TRANSACTION = "transaction";
    /** Optional: absent in entries written before it was recorded (the row count before the commit is then unknown). */
    private static final String ROWS_BEFORE = "rowsBefore";
    /** Optional: absent in entries written before it was recorded, meaning no operation records. */
    private static final String OPERATIONS = "operations";

    private static final String FILE_NAME = "name";
    private static final String FILE_ROWS = "rows";
    private static final String FILE_BYTES = "bytes";
    private static final String FILE_COMMITTED_AT = "committedAt";
    /** Optional: present only for content published over a live file of the same name. */
    private static final String FILE_STAGED_AS = "stagedAs";

    private static final String OPERATION_IDS = "ids";
    /** Null for a commit that changes no feature rows (adoption, the key index). */
    private static final String OPERATION_ROWS = "rows";
    /** Optional: absent when none of the record's operations carries a delta sequence. */
    private static final String OPERATION_SEQUENCES = "sequences";

    private static final String INSERTED = "inserted";
    private static final String UPDATED = "updated";
    private static final String DELETED = "deleted";
    private static final String MOVED_IN = "movedIn";
    private static final String MOVED_OUT = "movedOut";

    private CommitEntryParser() {}

    /**
     * The entry's file content: fields in the order of section 5.2, pretty-printed, without a final newline. Optional
     * fields without a value ({@code rowsBefore}, {@code operations}, {@code stagedAs}) are left out, as entries written
     * before they existed have them.
     */
    public static byte[] toJson(PartitionCommit entry) {
        if (entry.isEmptyPartition()) {
            throw new IllegalArgumentException(
                    "The state of partition " + entry.cell() + " before its first commit is never written");
        }
        return JsonFields.write(generator -> toJson(entry, generator));
    }

    static void toJson(PartitionCommit entry, JsonGenerator generator) throws IOException {
        generator.writeStartObject();
        generator.writeNumberField(FORMAT_VERSION, entry.formatVersion());
        generator.writeStringField(CELL, entry.cell());
        generator.writeNumberField(VERSION, entry.version());
        generator.writeStringField(OPERATION_ID, entry.operationId());
        generator.writeStringField(OPERATION_TYPE, entry.operationType().name());
        generator.writeStringField(COMMITTED_AT, entry.committedAt().toString());
        generator.writeArrayFieldStart(FILES);
        for (DataFileEntry file : entry.files()) {
            generator.writeStartObject();
            generator.writeStringField(FILE_NAME, file.name());
            generator.writeNumberField(FILE_ROWS, file.rows());
            generator.writeNumberField(FILE_BYTES, file.bytes());
            generator.writeStringField(FILE_COMMITTED_AT, file.committedAt().toString());
            if (file.stagedAs() != null) {
                generator.writeStringField(FILE_STAGED_AS, file.stagedAs());
            }
            generator.writeEndObject();
        }
        generator.writeEndArray();
        JsonFields.writeStrings(generator, ADDED, entry.added());
        JsonFields.writeStrings(generator, REMOVED, entry.removed());
        generator.writeNumberField(ROW_COUNT, entry.rowCount());
        JsonFields.writeStrings(generator, RECENT_OPERATION_IDS, entry.recentOperationIds());
        JsonFields.writeNullableString(generator, TRANSACTION, entry.transaction());
        if (entry.rowsBefore() != null) {
            generator.writeNumberField(ROWS_BEFORE, entry.rowsBefore());
        }
        if (!entry.operations().isEmpty()) {
            generator.writeArrayFieldStart(OPERATIONS);
            for (OperationRecord operation : entry.operations()) {
                generator.writeStartObject();
                JsonFields.writeStrings(generator, OPERATION_IDS, operation.ids());
                generator.writeFieldName(OPERATION_ROWS);
                if (operation.rows() == null) {
                    generator.writeNull();
                } else {
                    RowChanges rows = operation.rows();
                    generator.writeStartObject();
                    generator.writeNumberField(INSERTED, rows.inserted());
                    generator.writeNumberField(UPDATED, rows.updated());
                    generator.writeNumberField(DELETED, rows.deleted());
                    generator.writeNumberField(MOVED_IN, rows.movedIn());
                    generator.writeNumberField(MOVED_OUT, rows.movedOut());
                    generator.writeEndObject();
                }
                if (operation.sequences() != null) {
                    JsonFields.writeNullableLongs(generator, OPERATION_SEQUENCES, operation.sequences());
                }
                generator.writeEndObject();
            }
            generator.writeEndArray();
        }
        generator.writeEndObject();
    }

    /**
     * Reads an entry. Whether it belongs where it was found (its {@code cell} and {@code version} against its path) is
     * the caller's check.
     *
     * @param file the entry's location, named in every error
     * @throws UnsupportedFormatVersionException when it was written under a newer format version
     * @throws ArchiveFormatException            when it does not follow the format, naming the field
     */
    public static PartitionCommit fromJson(byte[] json, String file) throws ArchiveFormatException {
        JsonFields fields = JsonFields.parse(json, WHAT, file);
        int formatVersion =
                fields.formatVersion(FORMAT_VERSION, "The " + WHAT, 0, PartitionCommit.HIGHEST_FORMAT_VERSION);
        try {
            List<DataFileEntry> files = new ArrayList<>();
            for (JsonFields fileFields : fields.requiredObjects(FILES)) {
                files.add(new DataFileEntry(
                        fileFields.requiredString(FILE_NAME),
                        fileFields.requiredLong(FILE_ROWS),
                        fileFields.requiredLong(FILE_BYTES),
                        fileFields.requiredInstant(FILE_COMMITTED_AT),
                        fileFields.optionalString(FILE_STAGED_AS)));
            }
            List<OperationRecord> operations = new ArrayList<>();
            for (JsonFields operation : fields.optionalObjects(OPERATIONS)) {
                JsonFields rows = operation.optionalObject(OPERATION_ROWS);
                operations.add(new OperationRecord(
                        operation.requiredStrings(OPERATION_IDS),
                        rows == null
                                ? null
                                : new RowChanges(
                                        rows.requiredLong(INSERTED),
                                        rows.requiredLong(UPDATED),
                                        rows.requiredLong(DELETED),
                                        rows.requiredLong(MOVED_IN),
                                        rows.requiredLong(MOVED_OUT)),
                        operation.optionalNullableLongs(OPERATION_SEQUENCES)));
            }
            long version = fields.requiredLong(VERSION);
            if (version < 1) {
                throw new ArchiveFormatException(file, "field '" + VERSION + "' must be at least 1, found " + version);
            }
            String transaction = fields.optionalString(TRANSACTION);
            if (transaction != null && !ArchiveLayout.isTransactionId(transaction)) {
                throw new ArchiveFormatException(
                        file,
                        "field '" + TRANSACTION
                                + "' must be a lower-case UUID (8-4-4-4-12 hexadecimal digits), found \"" + transaction
                                + "\"");
            }
            return new PartitionCommit(
                    formatVersion,
                    fields.requiredString(CELL),
                    version,
                    fields.requiredString(OPERATION_ID),
                    fields.requiredEnum(OPERATION_TYPE, OperationType.class),
                    fields.requiredInstant(COMMITTED_AT),
                    files,
                    fields.requiredStrings(ADDED),
                    fields.requiredStrings(REMOVED),
                    fields.requiredLong(ROW_COUNT),
                    fields.requiredStrings(RECENT_OPERATION_IDS),
                    transaction,
                    fields.optionalLong(ROWS_BEFORE),
                    operations);
        } catch (IllegalArgumentException invalid) {
            throw fields.invalid("The " + WHAT, invalid);
        }
    }
}
