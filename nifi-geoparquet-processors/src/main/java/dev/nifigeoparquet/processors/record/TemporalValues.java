package dev.nifigeoparquet.processors.record;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.sql.Time;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit;

/**
 * Dates, times and timestamps between Parquet's epoch counts and the Java values NiFi records hold.
 *
 * <p>NiFi's conventions are kept: DATE is {@link java.sql.Date} and TIME is {@link Time}, both in the JVM
 * zone; a wall-clock (not UTC-adjusted) timestamp is {@link Timestamp#valueOf(LocalDateTime)}, an instant is
 * {@link Timestamp#from(Instant)}. {@link Timestamp} keeps nanoseconds, so every unit is exact. A TIME with
 * sub-millisecond units is returned as a {@link Timestamp} on 1970-01-01 (the same instant NiFi uses for a
 * {@link Time}) because {@link Time} keeps only milliseconds.
 */
final class TemporalValues {

    static final LocalDate EPOCH_DAY = LocalDate.EPOCH;
    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    private static final long JULIAN_DAY_OF_EPOCH = 2_440_588L;
    private static final Pattern ISO_DATE = Pattern.compile("[+-]?\\d{4,}-\\d{2}-\\d{2}");

    private TemporalValues() {}

    // ---- Parquet -> NiFi

    static java.sql.Date dateOf(int epochDay) {
        return java.sql.Date.valueOf(LocalDate.ofEpochDay(epochDay));
    }

    static java.util.Date timeOf(long count, TimeUnit unit, String path) {
        long nanoOfDay = Math.multiplyExact(count, nanosPer(unit));
        if (nanoOfDay < 0 || nanoOfDay >= LocalTime.MAX.toNanoOfDay() + 1) {
            throw RecordConversionException.forValue(
                    path, count, RecordConversionException.Reason.OUT_OF_RANGE, "is not a time of day in " + unit);
        }
        LocalDateTime onEpochDay = LocalDateTime.of(EPOCH_DAY, LocalTime.ofNanoOfDay(nanoOfDay));
        if (unit == TimeUnit.MILLIS) {
            return new Time(
                    onEpochDay.atZone(ZoneId.systemDefault()).toInstant().toEpochMilli());
        }
        return Timestamp.valueOf(onEpochDay);
    }

    static Timestamp timestampOf(final long count, TimeUnit unit, boolean adjustedToUtc, String path) {
        long perSecond = NANOS_PER_SECOND / nanosPer(unit);
        Instant instant = Instant.ofEpochSecond(
                Math.floorDiv(count, perSecond), Math.floorMod(count, perSecond) * nanosPer(unit));
        return adjustedToUtc
                ? Timestamp.from(instant)
                : wallClock(LocalDateTime.ofInstant(instant, ZoneOffset.UTC), count, path);
    }

    /** INT96: 8 bytes little-endian nanos of day, then 4 bytes little-endian Julian day; an instant in UTC. */
    static Timestamp timestampOfInt96(byte[] bytes) {
        ByteBuffer buffer = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        long nanosOfDay = buffer.getLong();
        long julianDay = Integer.toUnsignedLong(buffer.getInt());
        long epochDay = julianDay - JULIAN_DAY_OF_EPOCH;
        return Timestamp.from(Instant.ofEpochSecond(Math.multiplyExact(epochDay, 86_400L), nanosOfDay));
    }

    private static Timestamp wallClock(LocalDateTime local, long count, String path) {
        Timestamp timestamp = Timestamp.valueOf(local);
        if (!timestamp.toLocalDateTime().equals(local)) {
            // The JVM zone skips this wall-clock time (a DST gap): NiFi's Timestamp cannot hold it unchanged.
            throw RecordConversionException.forValue(
                    path,
                    count,
                    RecordConversionException.Reason.OUT_OF_RANGE,
                    "is the wall-clock time " + local + ", which does not exist in the JVM time zone "
                            + ZoneId.systemDefault());
        }
        return timestamp;
    }

    // ---- NiFi -> Parquet

    static int epochDayOf(Object value) {
        LocalDate date = switch (value) {
            case java.sql.Date sqlDate -> sqlDate.toLocalDate();
            case LocalDate localDate -> localDate;
            case CharSequence text -> parseDate(text.toString().trim());
            default ->
                throw new ValueRefusal(
                        RecordConversionException.Reason.WRONG_TYPE,
                        "cannot be stored as DATE (expected java.sql.Date, LocalDate or an ISO yyyy-MM-dd string)");
        };
        return Math.toIntExact(date.toEpochDay());
    }

    private static LocalDate parseDate(String text) {
        if (!ISO_DATE.matcher(text).matches()) {
            throw new ValueRefusal(RecordConversionException.Reason.UNPARSEABLE, "is not an ISO date (yyyy-MM-dd)");
        }
        try {
            return LocalDate.parse(text);
        } catch (DateTimeParseException e) {
            throw new ValueRefusal(
                    RecordConversionException.Reason.UNPARSEABLE, "is not an ISO date: " + e.getMessage());
        }
    }

    static long timeCountOf(Object value, TimeUnit unit) {
        LocalTime time = switch (value) {
            case Timestamp timestamp -> timeOfDayOnEpochDay(timestamp);
            case Time sqlTime -> LocalTime.ofInstant(Instant.ofEpochMilli(sqlTime.getTime()), ZoneId.systemDefault());
            case LocalTime localTime -> localTime;
            case CharSequence text ->
                parse(text.toString().trim(), LocalTime::parse, "an ISO time (HH:mm:ss[.fraction])");
            default ->
                throw new ValueRefusal(
                        RecordConversionException.Reason.WRONG_TYPE,
                        "cannot be stored as TIME (expected java.sql.Time, LocalTime or an ISO time string)");
        };
        return exactCount(time.toNanoOfDay(), unit);
    }

    private static LocalTime timeOfDayOnEpochDay(Timestamp timestamp) {
        LocalDateTime local = timestamp.toLocalDateTime();
        if (!local.toLocalDate().equals(EPOCH_DAY)) {
            throw new ValueRefusal(
                    RecordConversionException.Reason.WRONG_TYPE,
                    "is a timestamp with a date; a TIME column keeps only the time of day (expected a Timestamp on 1970-01-01)");
        }
        return local.toLocalTime();
    }

    /** Seconds and nanos since the epoch: of the instant, or of the wall clock read as if it were UTC. */
    static long timestampCountOf(Object value, TimeUnit unit, boolean adjustedToUtc) {
        final Instant instant;
        if (adjustedToUtc) {
            instant = instantOf(value);
        } else {
            instant = wallClockOf(value).toInstant(ZoneOffset.UTC);
        }
        return countOf(instant, unit);
    }

    static byte[] int96Of(Object value) {
        Instant instant = instantOf(value);
        long epochDay = Math.floorDiv(instant.getEpochSecond(), 86_400L);
        long nanosOfDay = Math.floorMod(instant.getEpochSecond(), 86_400L) * NANOS_PER_SECOND + instant.getNano();
        long julianDay = epochDay + JULIAN_DAY_OF_EPOCH;
        if (julianDay < 0 || julianDay > 0xFFFF_FFFFL) {
            throw new ValueRefusal(
                    RecordConversionException.Reason.OUT_OF_RANGE, "is outside the INT96 timestamp range");
        }
        return ByteBuffer.allocate(12)
                .order(ByteOrder.LITTLE_ENDIAN)
                .putLong(nanosOfDay)
                .putInt((int) julianDay)
                .array();
    }

    private static Instant instantOf(Object value) {
        return switch (value) {
            case Timestamp timestamp -> timestamp.toInstant();
            case Time ignored ->
                throw new ValueRefusal(
                        RecordConversionException.Reason.WRONG_TYPE,
                        "is a time of day and cannot be stored as a timestamp");
            case java.sql.Date ignored ->
                throw new ValueRefusal(
                        RecordConversionException.Reason.WRONG_TYPE,
                        "is a date and cannot be stored as a timestamp without choosing a time zone");
            case java.util.Date date -> date.toInstant();
            case Instant instant -> instant;
            case OffsetDateTime dateTime -> dateTime.toInstant();
            case ZonedDateTime dateTime -> dateTime.toInstant();
            case Long millis -> Instant.ofEpochMilli(millis);
            case LocalDateTime ignored ->
                throw new ValueRefusal(
                        RecordConversionException.Reason.WRONG_TYPE,
                        "has no time zone; the column holds UTC instants (isAdjustedToUTC=true)");
            case CharSequence text ->
                parse(
                        text.toString().trim(),
                        TemporalValues::parseInstant,
                        "an ISO-8601 timestamp with a UTC offset (e.g. 2024-05-01T10:15:30.123456Z)");
            default ->
                throw new ValueRefusal(
                        RecordConversionException.Reason.WRONG_TYPE,
                        "cannot be stored as a timestamp (expected java.sql.Timestamp, Instant, OffsetDateTime, ZonedDateTime or epoch millis)");
        };
    }

    private static Instant parseInstant(String text) {
        return OffsetDateTime.parse(text).toInstant();
    }

    private static LocalDateTime wallClockOf(Object value) {
        return switch (value) {
            case Timestamp timestamp -> timestamp.toLocalDateTime();
            case LocalDateTime dateTime -> dateTime;
            case CharSequence text ->
                parse(
                        text.toString().trim(),
                        LocalDateTime::parse,
                        "an ISO-8601 local date-time without offset (e.g. 2024-05-01T10:15:30.123456)");
            case Time ignored ->
                throw new ValueRefusal(
                        RecordConversionException.Reason.WRONG_TYPE,
                        "is a time of day and cannot be stored as a timestamp");
            case java.sql.Date ignored ->
                throw new ValueRefusal(
                        RecordConversionException.Reason.WRONG_TYPE, "is a date and cannot be stored as a timestamp");
            case java.util.Date date -> LocalDateTime.ofInstant(date.toInstant(), ZoneId.systemDefault());
            case Long millis -> LocalDateTime.ofInstant(Instant.ofEpochMilli(millis), ZoneId.systemDefault());
            case Instant ignored -> throw zoneNeeded();
            case OffsetDateTime ignored -> throw zoneNeeded();
            case ZonedDateTime ignored -> throw zoneNeeded();
            default ->
                throw new ValueRefusal(
                        RecordConversionException.Reason.WRONG_TYPE,
                        "cannot be stored as a local timestamp (expected java.sql.Timestamp, LocalDateTime or epoch millis)");
        };
    }

    private static ValueRefusal zoneNeeded() {
        return new ValueRefusal(
                RecordConversionException.Reason.WRONG_TYPE,
                "is an instant; the column holds wall-clock times (isAdjustedToUTC=false), so storing it would need a time zone");
    }

    private static <T> T parse(final String text, Function<String, T> parser, String expected) {
        try {
            return parser.apply(text);
        } catch (DateTimeParseException e) {
            throw new ValueRefusal(RecordConversionException.Reason.UNPARSEABLE, "is not " + expected);
        }
    }

    private static long countOf(Instant instant, TimeUnit unit) {
        try {
            long perSecond = NANOS_PER_SECOND / nanosPer(unit);
            long seconds = instant.getEpochSecond();
            long fraction = exactCount(instant.getNano(), unit);
            if (seconds < 0 && fraction > 0) {
                // Borrow a second so the earliest representable counts (e.g. 1677 in NANOS) do not overflow midway.
                seconds += 1;
                fraction -= perSecond;
            }
            return Math.addExact(Math.multiplyExact(seconds, perSecond), fraction);
        } catch (ArithmeticException e) {
            throw new ValueRefusal(
                    RecordConversionException.Reason.OUT_OF_RANGE, "is outside the range of a 64-bit count of " + unit);
        }
    }

    private static long exactCount(long nanos, TimeUnit unit) {
        long perUnit = nanosPer(unit);
        if (nanos % perUnit != 0) {
            throw new ValueRefusal(
                    RecordConversionException.Reason.PRECISION_LOSS,
                    "has sub-" + unit.name().toLowerCase(Locale.ROOT) + " digits (nanos " + nanos % NANOS_PER_SECOND
                            + ") that a " + unit + " column would lose");
        }
        return nanos / perUnit;
    }

    private static long nanosPer(TimeUnit unit) {
        return switch (unit) {
            case MILLIS -> 1_000_000L;
            case MICROS -> 1_000L;
            case NANOS -> 1L;
        };
    }
}
