package dev.nifigeoparquet.it;

import java.util.Map;

/**
 * A FlowFile's identity and attributes, wherever a test finds them: waiting in a queue ({@link FlowGroup.Queued}), or
 * recorded by provenance after a processor wrote it out ({@link Provenance.Event}, {@link Written}).
 */
interface FlowFileView {

    String uuid();

    Map<String, String> attributes();

    default String attribute(String name) {
        return attributes().get(name);
    }
}
