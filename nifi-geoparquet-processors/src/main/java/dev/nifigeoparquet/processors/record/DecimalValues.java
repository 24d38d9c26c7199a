package dev.nifigeoparquet.processors.record;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.Arrays;
import org.apache.parquet.schema.LogicalTypeAnnotation.DecimalLogicalTypeAnnotation;

/**
 * Fits a decimal to a column's DECIMAL(precision, scale): rescaled only by adding zeros, never by rounding,
 * and refused when it needs more digits than the precision allows.
 */
final class DecimalValues {

    private DecimalValues() {}

    static BigInteger unscaledFor(BigDecimal value, DecimalLogicalTypeAnnotation decimal) {
        final BigDecimal rescaled;
        try {
            rescaled = value.setScale(decimal.getScale(), RoundingMode.UNNECESSARY);
        } catch (ArithmeticException e) {
            throw new ValueRefusal(
                    RecordConversionException.Reason.PRECISION_LOSS,
                    "has " + value.stripTrailingZeros().scale() + " fractional digits; " + describe(decimal) + " keeps "
                            + decimal.getScale());
        }
        if (rescaled.unscaledValue().abs().compareTo(BigInteger.TEN.pow(decimal.getPrecision())) >= 0) {
            throw new ValueRefusal(
                    RecordConversionException.Reason.OUT_OF_RANGE,
                    "needs " + rescaled.precision() + " digits; " + describe(decimal) + " holds "
                            + decimal.getPrecision());
        }
        return rescaled.unscaledValue();
    }

    /** Big-endian two's complement, sign-extended to exactly {@code length} bytes. */
    static byte[] fixedLength(BigInteger unscaled, int length) {
        byte[] minimal = unscaled.toByteArray();
        if (minimal.length > length) {
            throw new ValueRefusal(
                    RecordConversionException.Reason.OUT_OF_RANGE,
                    "needs " + minimal.length + " bytes; the column's fixed length is " + length);
        }
        byte[] padded = new byte[length];
        Arrays.fill(padded, 0, length - minimal.length, unscaled.signum() < 0 ? (byte) -1 : 0);
        System.arraycopy(minimal, 0, padded, length - minimal.length, minimal.length);
        return padded;
    }

    static String describe(DecimalLogicalTypeAnnotation decimal) {
        return "DECIMAL(" + decimal.getPrecision() + "," + decimal.getScale() + ")";
    }
}
