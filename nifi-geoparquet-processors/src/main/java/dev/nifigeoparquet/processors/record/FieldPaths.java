package dev.nifigeoparquet.processors.record;

/** Builds the field paths used in error messages: {@code parcel.owners[2].name}, {@code tags['k']}. */
final class FieldPaths {

    private FieldPaths() {}

    static String child(String parent, String name) {
        return parent.isEmpty() ? name : parent + "." + name;
    }

    static String element(String parent, int index) {
        return parent + "[" + index + "]";
    }

    static String entry(String parent, Object key) {
        return parent + "['" + key + "']";
    }
}
