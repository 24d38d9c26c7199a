package dev.nifigeoparquet.processors.record;

import java.util.Set;
import org.apache.parquet.schema.PrimitiveType;

/**
 * NiFi maps have string keys. A Parquet map key is accepted when its values have one exact, reversible
 * string form: strings, integers and UUIDs.
 */
final class MapKeys {

    private static final Set<ParquetScalar.Kind> SUPPORTED =
            Set.of(ParquetScalar.Kind.STRING, ParquetScalar.Kind.INTEGER, ParquetScalar.Kind.UUID);

    private MapKeys() {}

    static void requireSupported(PrimitiveType key, String path) {
        if (!SUPPORTED.contains(ParquetScalar.of(key).kind())) {
            throw RecordConversionException.forField(
                    path,
                    RecordConversionException.Reason.UNSUPPORTED_SCHEMA,
                    "field {} is not supported: NiFi maps need string keys and "
                            + ParquetScalar.of(key).describe() + " keys have no exact string form");
        }
    }
}
