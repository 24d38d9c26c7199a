package dev.nifigeoparquet.processors.record;

/** Builds the field paths used in error messages: {@code parcel.owners[2].name}, {@code tags['k']}. */
final class FieldPaths {

    private FieldPaths() {
    }

    static String child(final String parent, final String name) {
        return parent.isEmpty() ? name : parent + "." + name;
    }

    static String element(final String parent, final int index) {
        return parent + "[" + index + "]";
    }

    static String entry(final String parent, final Object key) {
        return parent + "['" + key + "']";
    }
}
