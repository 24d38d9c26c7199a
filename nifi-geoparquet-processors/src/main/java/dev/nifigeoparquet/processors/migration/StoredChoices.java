package dev.nifigeoparquet.processors.migration;

import org.apache.nifi.components.DescribedValue;
import org.apache.nifi.components.PropertyDescriptor;
import org.apache.nifi.migration.PropertyConfiguration;

/**
 * Every choice is stored as the name the canvas shows. Flows saved by earlier builds stored a few as their constant's
 * name ({@code LON_LAT}, {@code ADOPT}); they load with the same choice.
 */
public final class StoredChoices {

    private StoredChoices() {}

    /** Rewrites the property's stored constant name, if it holds one, to the choice's value. */
    public static <E extends Enum<E> & DescribedValue> void migrateConstantName(
            PropertyConfiguration config, PropertyDescriptor property, Class<E> choices) {
        config.getRawPropertyValue(property.getName()).ifPresent(stored -> {
            for (E choice : choices.getEnumConstants()) {
                if (choice.name().equals(stored) && !choice.getValue().equals(stored)) {
                    config.setProperty(property.getName(), choice.getValue());
                }
            }
        });
    }
}
