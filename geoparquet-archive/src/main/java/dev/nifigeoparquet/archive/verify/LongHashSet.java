package dev.nifigeoparquet.archive.verify;

import java.util.Arrays;

/**
 * A set of 64-bit values in one open-addressing {@code long[]} (linear probing): about 11 to 21 bytes per value (load at most 0.75, power-of-two table) instead
 * of the ~60 of a {@code HashSet<Long>}, which is what lets key uniqueness be checked over millions of rows in a
 * modest heap.
 */
final class LongHashSet {

    private static final double MAX_LOAD = 0.75;
    /** Marks an empty slot; the value 0 itself is tracked by {@link #hasZero}. */
    private static final long EMPTY = 0L;

    private long[] slots;
    private int size;
    private boolean hasZero;

    LongHashSet(long expectedValues) {
        slots = new long[capacityFor(expectedValues)];
    }

    private static int capacityFor(long values) {
        long wanted = Math.max(16, (long) Math.ceil(values / MAX_LOAD));
        if (wanted > (1 << 30)) {
            throw new IllegalArgumentException("Too many values for one set: " + values);
        }
        return Integer.highestOneBit((int) wanted - 1) << 1;
    }

    /** Adds a value; false when it was already present. */
    boolean add(long value) {
        if (value == EMPTY) {
            boolean added = !hasZero;
            hasZero = true;
            return added;
        }
        if (size + 1 > slots.length * MAX_LOAD) {
            grow();
        }
        if (insert(slots, value)) {
            size++;
            return true;
        }
        return false;
    }

    boolean contains(long value) {
        if (value == EMPTY) {
            return hasZero;
        }
        int mask = slots.length - 1;
        for (int i = index(value, mask); ; i = (i + 1) & mask) {
            long slot = slots[i];
            if (slot == value) {
                return true;
            }
            if (slot == EMPTY) {
                return false;
            }
        }
    }

    int size() {
        return size + (hasZero ? 1 : 0);
    }

    boolean isEmpty() {
        return size() == 0;
    }

    private static boolean insert(long[] table, long value) {
        int mask = table.length - 1;
        for (int i = index(value, mask); ; i = (i + 1) & mask) {
            long slot = table[i];
            if (slot == value) {
                return false;
            }
            if (slot == EMPTY) {
                table[i] = value;
                return true;
            }
        }
    }

    private void grow() {
        long[] bigger = new long[slots.length * 2];
        for (long value : slots) {
            if (value != EMPTY) {
                insert(bigger, value);
            }
        }
        slots = bigger;
    }

    /** The values are already hashes, but their low bits pick the slot, so mix the high bits in. */
    private static int index(long value, int mask) {
        return (int) (value ^ (value >>> 32)) & mask;
    }

    @Override
    public String toString() {
        return "LongHashSet[size=" + size() + ", capacity=" + slots.length + "]"
                + (size() < 10 ? Arrays.toString(slots) : "");
    }
}
