package dev.nifigeoparquet.processors.migration;

import org.apache.nifi.components.PropertyDescriptor;
import org.apache.nifi.migration.PropertyConfiguration;

/**
 * Flows saved by earlier builds stored a few choices as their constant's name ({@code LON_LAT}, {@code ADOPT}) instead
 * of the {@link StoredChoice} form; they load with the same choice.
 */
public final class StoredChoices {

    private StoredChoices() {}

    /** Rewrites the property's stored constant name, if it holds one, to the choice's value. */
    public static <E extends Enum<E> & StoredChoice> void migrateConstantName(
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
