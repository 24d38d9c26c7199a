package dev.nifigeoparquet.processors.migration;

import org.apache.nifi.components.DescribedValue;

/**
 * A choice a property offers, stored in a flow as the name the canvas shows: one form for every property, so that a
 * flow definition, an Expression Language comparison and the documentation read the same words.
 */
public interface StoredChoice extends DescribedValue {

    @Override
    default String getValue() {
        return getDisplayName();
    }
}
