package dev.nifigeoparquet.archive.index;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The key index orders keys as Parquet's statistics of a STRING column do: by the unsigned bytes of their UTF-8
 * encoding. The comparison works on UTF-16 units, so it is checked here against the bytes themselves.
 */
class CodePointOrderTest {

    /** Units from every range where UTF-16 and UTF-8 orders could part: ASCII, below and above the surrogates. */
    private static final int[] CODE_POINTS = {
        'a', 'b', 'z', '0', '~', 0xE9, 0x7FF, 0x800, 0xD7FF, 0xE000, 0xFF01, 0xFFFD, 0xFFFF, 0x10000, 0x1F600, 0x10FFFF
    };

    @Test
    void agreesWithTheUnsignedOrderOfUtf8Bytes() {
        SplittableRandom random = new SplittableRandom(42);
        for (int i = 0; i < 200_000; i++) {
            String a = randomKey(random);
            // Keys that share a prefix, as index keys of one table do, so the comparison reaches the units that differ.
            String b = random.nextBoolean()
                    ? a.substring(0, a.offsetByCodePoints(0, a.codePointCount(0, a.length()) / 2)) + randomKey(random)
                    : randomKey(random);
            assertEquals(
                    Integer.signum(utf8Order(a, b)),
                    Integer.signum(KeyIndex.compareCodePoints(a, b)),
                    () -> "order of " + codePoints(a) + " and " + codePoints(b));
        }
    }

    @Test
    void aCodePointBeyondTheBasicPlaneFollowsTheLastUnitsBelowIt() {
        String emoji = new String(Character.toChars(0x1F600));
        assertEquals(1, Integer.signum(KeyIndex.compareCodePoints("k" + emoji, "k\uFF01")));
        assertEquals(-1, Integer.signum(KeyIndex.compareCodePoints("k\uFF01", "k" + emoji)));
        assertEquals(-1, Integer.signum(KeyIndex.compareCodePoints("k", "k" + emoji)));
        assertEquals(0, KeyIndex.compareCodePoints("k" + emoji, "k" + emoji));
    }

    private static String randomKey(SplittableRandom random) {
        StringBuilder key = new StringBuilder();
        int length = random.nextInt(0, 6);
        for (int i = 0; i < length; i++) {
            key.appendCodePoint(CODE_POINTS[random.nextInt(CODE_POINTS.length)]);
        }
        return key.toString();
    }

    private static int utf8Order(String a, String b) {
        return Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
    }

    private static String codePoints(String s) {
        return s.codePoints().mapToObj(Integer::toHexString).toList().toString();
    }
}
