package dev.nifigeoparquet.processors.record;

import dev.nifigeoparquet.archive.ops.SchemaHandling;
import java.util.Objects;

/**
 * How strictly a NiFi record must match the target Parquet schema. Values are always converted exactly;
 * these options only decide what to do about fields that are absent or unknown.
 *
 * @param schemaHandling what to do when the record lacks an optional field of the target schema.
 *        Defaults to {@link SchemaHandling#STRICT}: the engine's one definition, which deltas read from files
 *        follow too. A missing required field is always refused.
 * @param ignoreExtraFields whether fields the target schema does not have are dropped (true) or refused
 *        (false, the default) so that no data is silently lost.
 */
public record RecordConversionOptions(SchemaHandling schemaHandling, boolean ignoreExtraFields) {

    /** Every target field must be present, no other field may be: the default. */
    public static final RecordConversionOptions STRICT = new RecordConversionOptions(SchemaHandling.STRICT, false);

    public RecordConversionOptions {
        Objects.requireNonNull(schemaHandling, "schemaHandling");
    }

    public RecordConversionOptions withSchemaHandling(SchemaHandling handling) {
        return new RecordConversionOptions(handling, ignoreExtraFields);
    }

    public RecordConversionOptions withIgnoreExtraFields(boolean ignore) {
        return new RecordConversionOptions(schemaHandling, ignore);
    }
}
