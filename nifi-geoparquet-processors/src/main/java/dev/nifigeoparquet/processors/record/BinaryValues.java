package dev.nifigeoparquet.processors.record;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * Bytes in the forms NiFi records carry them: {@code byte[]}, {@code Byte[]}, an {@code Object[]} of Byte
 * (what NiFi readers produce for ARRAY of BYTE), a List of Byte, or a {@link ByteBuffer}.
 */
public final class BinaryValues {

    private BinaryValues() {}

    /** The NiFi form of binary values, WKB geometries among them. */
    public static Byte[] boxed(byte[] bytes) {
        Byte[] boxed = new Byte[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            boxed[i] = bytes[i];
        }
        return boxed;
    }

    static byte[] bytesOf(Object value) {
        byte[] bytes = bytesOrNull(value);
        if (bytes == null) {
            throw new ValueRefusal(RecordConversionException.Reason.WRONG_TYPE, whyNotBinary(value));
        }
        return bytes;
    }

    /** The value's bytes, or null when it is in none of the binary forms (an array holding anything but Bytes included). */
    public static byte[] bytesOrNull(Object value) {
        return switch (value) {
            case byte[] bytes -> bytes;
            case Object[] elements -> unboxed(elements);
            case List<?> elements -> unboxed(elements.toArray());
            case ByteBuffer buffer -> {
                byte[] bytes = new byte[buffer.remaining()];
                buffer.duplicate().get(bytes);
                yield bytes;
            }
            case null, default -> null;
        };
    }

    private static byte[] unboxed(Object[] elements) {
        byte[] bytes = new byte[elements.length];
        for (int i = 0; i < elements.length; i++) {
            if (!(elements[i] instanceof Byte element)) {
                return null;
            }
            bytes[i] = element;
        }
        return bytes;
    }

    private static String whyNotBinary(Object value) {
        Object[] elements = value instanceof Object[] array
                ? array
                : value instanceof List<?> list ? list.toArray() : new Object[0];
        for (int i = 0; i < elements.length; i++) {
            if (!(elements[i] instanceof Byte)) {
                return "is not binary: element " + i + " is " + ValueDescriptions.describe(elements[i])
                        + ", not a Byte";
            }
        }
        return "is not binary (expected byte[], Byte[], an array of Byte or a ByteBuffer)";
    }
}
