package dev.nifigeoparquet.processors.record;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.regex.Pattern;

/**
 * Numbers from NiFi values, converted only when the result equals the input. Integers must be whole and in
 * range; decimal fractions headed for FLOAT or DOUBLE round to the nearest binary value (they have no exact
 * binary form), but must not overflow or vanish; an integer headed for FLOAT or DOUBLE must survive unchanged.
 * Strings are read only in plain decimal notation, so {@code "1f"}, {@code "0x10"} or {@code "1,5"} are refused.
 */
final class ExactNumbers {

    private static final Pattern INTEGER_TEXT = Pattern.compile("[+-]?\\d+");
    private static final Pattern DECIMAL_TEXT = Pattern.compile("[+-]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][+-]?\\d+)?");

    private ExactNumbers() {}

    static BigInteger integerOf(Object value) {
        return switch (value) {
            case Byte number -> BigInteger.valueOf(number);
            case Short number -> BigInteger.valueOf(number);
            case Integer number -> BigInteger.valueOf(number);
            case Long number -> BigInteger.valueOf(number);
            case BigInteger number -> number;
            case BigDecimal number -> wholePart(number);
            case Float number -> wholePart(finite(number.doubleValue()));
            case Double number -> wholePart(finite(number));
            case CharSequence text -> {
                String trimmed = text.toString().trim();
                if (!INTEGER_TEXT.matcher(trimmed).matches()) {
                    throw new ValueRefusal(RecordConversionException.Reason.UNPARSEABLE, "is not a decimal integer");
                }
                yield new BigInteger(trimmed);
            }
            default -> throw wrongType("an integer");
        };
    }

    static BigDecimal decimalOf(Object value) {
        return switch (value) {
            case Byte number -> BigDecimal.valueOf(number);
            case Short number -> BigDecimal.valueOf(number);
            case Integer number -> BigDecimal.valueOf(number);
            case Long number -> BigDecimal.valueOf(number);
            case BigInteger number -> new BigDecimal(number);
            case BigDecimal number -> number;
            // The shortest decimal that reads back as the same float/double: what the producer meant.
            case Float number ->
                new BigDecimal(Float.toString(finite(number.doubleValue()).floatValue()));
            case Double number -> BigDecimal.valueOf(finite(number));
            case CharSequence text -> parseDecimal(text.toString().trim());
            default -> throw wrongType("a decimal");
        };
    }

    static double doubleOf(Object value) {
        return switch (value) {
            case Float number -> number.doubleValue();
            case Double number -> number;
            case BigDecimal number -> nearestDouble(number);
            case CharSequence text -> doubleOfText(text.toString().trim());
            case Byte number -> number.doubleValue();
            case Short number -> number.doubleValue();
            case Integer number -> number.doubleValue();
            case Long number -> exactlyRepresented(BigInteger.valueOf(number), number.doubleValue(), "DOUBLE");
            case BigInteger number -> exactlyRepresented(number, number.doubleValue(), "DOUBLE");
            default -> throw wrongType("a floating-point number");
        };
    }

    static float floatOf(Object value) {
        return switch (value) {
            case Float number -> number;
            case Double number -> nearestFloat(number);
            case BigDecimal number -> nearestFloat(number.floatValue(), number);
            case CharSequence text -> floatOfText(text.toString().trim());
            case Byte number -> number.floatValue();
            case Short number -> number.floatValue();
            case Integer number -> (float) exactlyRepresented(BigInteger.valueOf(number), number.floatValue(), "FLOAT");
            case Long number -> (float) exactlyRepresented(BigInteger.valueOf(number), number.floatValue(), "FLOAT");
            case BigInteger number -> (float) exactlyRepresented(number, number.floatValue(), "FLOAT");
            default -> throw wrongType("a floating-point number");
        };
    }

    static boolean booleanOf(Object value) {
        if (value instanceof Boolean bool) {
            return bool;
        }
        if (value instanceof CharSequence text) {
            String trimmed = text.toString().trim();
            if (trimmed.equalsIgnoreCase("true") || trimmed.equalsIgnoreCase("false")) {
                return Boolean.parseBoolean(trimmed);
            }
            throw new ValueRefusal(RecordConversionException.Reason.UNPARSEABLE, "is not 'true' or 'false'");
        }
        throw wrongType("a boolean");
    }

    private static double doubleOfText(String text) {
        Double special = special(text);
        return special != null ? special : nearestDouble(parseDecimal(text));
    }

    private static float floatOfText(String text) {
        Double special = special(text);
        if (special != null) {
            return special.floatValue();
        }
        BigDecimal number = parseDecimal(text);
        return nearestFloat(number.floatValue(), number);
    }

    private static BigInteger wholePart(BigDecimal number) {
        try {
            return number.toBigIntegerExact();
        } catch (ArithmeticException e) {
            throw new ValueRefusal(
                    RecordConversionException.Reason.PRECISION_LOSS,
                    "has a fractional part an integer column would lose");
        }
    }

    private static BigInteger wholePart(Double number) {
        return wholePart(new BigDecimal(number));
    }

    private static Double finite(double number) {
        if (!Double.isFinite(number)) {
            throw new ValueRefusal(RecordConversionException.Reason.OUT_OF_RANGE, "is not a finite number");
        }
        return number;
    }

    private static BigDecimal parseDecimal(String text) {
        if (!DECIMAL_TEXT.matcher(text).matches()) {
            throw new ValueRefusal(
                    RecordConversionException.Reason.UNPARSEABLE, "is not a number in plain decimal notation");
        }
        return new BigDecimal(text);
    }

    private static Double special(String text) {
        return switch (text) {
            case "NaN" -> Double.NaN;
            case "Infinity", "+Infinity" -> Double.POSITIVE_INFINITY;
            case "-Infinity" -> Double.NEGATIVE_INFINITY;
            default -> null;
        };
    }

    private static double nearestDouble(BigDecimal number) {
        double result = number.doubleValue();
        if (Double.isInfinite(result)) {
            throw new ValueRefusal(RecordConversionException.Reason.OUT_OF_RANGE, "does not fit DOUBLE");
        }
        if (result == 0 && number.signum() != 0) {
            throw new ValueRefusal(
                    RecordConversionException.Reason.PRECISION_LOSS, "is too small for DOUBLE and would become 0");
        }
        return result;
    }

    private static float nearestFloat(double number) {
        float result = (float) number;
        if (Float.isInfinite(result) && !Double.isInfinite(number)) {
            throw new ValueRefusal(RecordConversionException.Reason.OUT_OF_RANGE, "does not fit FLOAT");
        }
        if (result == 0 && number != 0) {
            throw new ValueRefusal(
                    RecordConversionException.Reason.PRECISION_LOSS, "is too small for FLOAT and would become 0");
        }
        return result;
    }

    private static float nearestFloat(float result, BigDecimal number) {
        if (Float.isInfinite(result)) {
            throw new ValueRefusal(RecordConversionException.Reason.OUT_OF_RANGE, "does not fit FLOAT");
        }
        if (result == 0 && number.signum() != 0) {
            throw new ValueRefusal(
                    RecordConversionException.Reason.PRECISION_LOSS, "is too small for FLOAT and would become 0");
        }
        return result;
    }

    private static double exactlyRepresented(BigInteger number, double converted, String target) {
        if (!Double.isFinite(converted)
                || new BigDecimal(converted).toBigIntegerExact().compareTo(number) != 0) {
            throw new ValueRefusal(
                    RecordConversionException.Reason.PRECISION_LOSS,
                    "cannot be represented exactly as " + target + " (nearest is "
                            + (target.equals("FLOAT") ? Float.toString((float) converted) : Double.toString(converted))
                            + ")");
        }
        return converted;
    }

    private static ValueRefusal wrongType(String expected) {
        return new ValueRefusal(RecordConversionException.Reason.WRONG_TYPE, "is not " + expected);
    }
}
