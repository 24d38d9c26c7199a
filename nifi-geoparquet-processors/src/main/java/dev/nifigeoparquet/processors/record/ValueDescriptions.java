package dev.nifigeoparquet.processors.record;

import java.lang.reflect.Array;
import java.nio.ByteBuffer;

/** Short, bounded renderings of values for error messages: enough to find the row, never a whole payload. */
final class ValueDescriptions {

    private static final int MAX_TEXT = 60;

    private ValueDescriptions() {}

    /** {@code 1.0E40 (Double)}, {@code "abc" (String)}, {@code [17 elements] (byte[])}. */
    static String describe(Object value) {
        if (value == null) {
            return "null";
        }
        return render(value) + " (" + value.getClass().getSimpleName() + ")";
    }

    private static String render(Object value) {
        if (value.getClass().isArray()) {
            return "[" + Array.getLength(value) + " elements]";
        }
        if (value instanceof ByteBuffer buffer) {
            return "[" + buffer.remaining() + " bytes]";
        }
        String text = String.valueOf(value);
        String shortened = text.length() > MAX_TEXT ? text.substring(0, MAX_TEXT) + "..." : text;
        return value instanceof CharSequence ? "\"" + shortened + "\"" : shortened;
    }
}
