package dev.nifigeoparquet.archive.storage;

import java.io.IOException;

/**
 * A stream into a staged object that its writer can give up: what was written is discarded, never completed or
 * published, and what the stream holds (a file channel, a multipart upload whose parts are billed) is released. A
 * storage whose staged streams publish their object when closed must return streams of this kind.
 */
public interface AbandonableStream {

    /** Gives the object up; closing the stream afterwards does nothing, and so does abandoning it again. */
    void abandon() throws IOException;
}
