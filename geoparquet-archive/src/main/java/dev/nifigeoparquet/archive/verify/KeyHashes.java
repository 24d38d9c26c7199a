package dev.nifigeoparquet.archive.verify;

import dev.nifigeoparquet.archive.format.FeatureKey;
import java.nio.charset.StandardCharsets;

/**
 * A 64-bit hash of a feature key: FNV-1a over each value's length and UTF-8 bytes, finished with MurmurHash3's
 * 64-bit mixer. Equal keys always hash equally; unequal keys collide rarely, and a collision only costs an exact
 * comparison in the second pass.
 */
final class KeyHashes {

    private static final long FNV_OFFSET = 0xcbf29ce484222325L;
    private static final long FNV_PRIME = 0x100000001b3L;

    private KeyHashes() {}

    static long hash(FeatureKey key) {
        long hash = FNV_OFFSET;
        for (String value : key.values()) {
            byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
            hash = mixInt(hash, bytes.length);
            for (byte b : bytes) {
                hash ^= b & 0xff;
                hash *= FNV_PRIME;
            }
        }
        return finish(hash);
    }

    private static long mixInt(long hash, int value) {
        for (int shift = 0; shift < 32; shift += 8) {
            hash ^= (value >>> shift) & 0xff;
            hash *= FNV_PRIME;
        }
        return hash;
    }

    private static long finish(long hash) {
        hash ^= hash >>> 33;
        hash *= 0xff51afd7ed558ccdL;
        hash ^= hash >>> 33;
        hash *= 0xc4ceb9fe1a85ec53L;
        hash ^= hash >>> 33;
        return hash;
    }
}
