package dev.nifigeoparquet.archive.index;

import dev.nifigeoparquet.archive.format.FeatureKey;
import dev.nifigeoparquet.archive.order.KeyStamp;
import java.util.Objects;

/**
 * One record of the key index (docs/archive-format.md, section 10.4): key {@code key} is in {@code cell}, or has left
 * it, and the stamp of the latest sequenced write of the key (section 6.4) when there was one. A tombstone of a key
 * that no cell held when it was deleted has the empty cell.
 *
 * @param key     the key's index text (section 10.1)
 * @param cell    a cell of 15 lower-case hexadecimal digits, or empty for such a tombstone
 * @param present whether the key is in the cell
 * @param stamp   the key's stamp after the write that made the record; null when the key has none
 */
public record KeyRecord(String key, String cell, boolean present, KeyStamp stamp) {

    /** The cell of a tombstone that names no cell. */
    public static final String NO_CELL = "";

    public KeyRecord {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(cell, "cell");
        if (present && cell.isEmpty()) {
            throw new IllegalArgumentException("Key " + key + " cannot be present in no cell");
        }
    }

    /** The key arrives in, or stays in, a cell. */
    public static KeyRecord present(FeatureKey key, String cell, KeyStamp stamp) {
        return new KeyRecord(key.indexText(), cell, true, stamp);
    }

    /** The key leaves a cell. */
    public static KeyRecord gone(FeatureKey key, String cell, KeyStamp stamp) {
        return new KeyRecord(key.indexText(), cell, false, stamp);
    }

    /** A deletion of a key no cell holds, kept for its stamp. */
    public static KeyRecord tombstone(FeatureKey key, KeyStamp stamp) {
        return new KeyRecord(key.indexText(), NO_CELL, false, Objects.requireNonNull(stamp, "stamp"));
    }

    /** The same record with another stamp. */
    KeyRecord withStamp(KeyStamp newStamp) {
        return new KeyRecord(key, cell, present, newStamp);
    }
}
