package dev.nifigeoparquet.archive.geo;

import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.Type;

/**
 * Walks a Parquet LIST group of groups, in the standard three-level layout
 * ({@code <list> (LIST) { repeated group list { element } }}) and the legacy two-level one
 * ({@code repeated group} that is itself the element), following the Parquet format's backward-compatibility rules.
 */
final class NativeLists {

    private NativeLists() {}

    /** The list's elements; a null element (never valid in GeoArrow coordinates) is an error. */
    static List<Group> elements(Group list) {
        boolean threeLevel = isThreeLevel(list.getType());
        int count = list.getFieldRepetitionCount(0);
        List<Group> elements = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            Group repeated = list.getGroup(0, i);
            if (!threeLevel) {
                elements.add(repeated);
            } else if (repeated.getFieldRepetitionCount(0) == 0) {
                throw new IllegalArgumentException(
                        "null element " + i + " in list '" + list.getType().getName() + "'");
            } else {
                elements.add(repeated.getGroup(0, 0));
            }
        }
        return elements;
    }

    /** Appends an element to the list and returns it for filling in. */
    static Group addElement(Group list) {
        Group repeated = list.addGroup(0);
        return isThreeLevel(list.getType()) ? repeated.addGroup(0) : repeated;
    }

    private static boolean isThreeLevel(GroupType listType) {
        if (listType.getFieldCount() != 1 || !listType.getType(0).isRepetition(Type.Repetition.REPEATED)) {
            throw new IllegalArgumentException("'" + listType.getName() + "' is not a list: " + listType);
        }
        Type repeated = listType.getType(0);
        return !repeated.isPrimitive()
                && repeated.asGroupType().getFieldCount() == 1
                && !repeated.getName().equals("array")
                && !repeated.getName().equals(listType.getName() + "_tuple");
    }
}
