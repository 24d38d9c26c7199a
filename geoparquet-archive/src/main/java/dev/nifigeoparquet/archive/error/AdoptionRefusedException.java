package dev.nifigeoparquet.archive.error;

/**
 * A directory cannot be adopted as it is; nothing was adopted. The message names each reason with examples; the
 * count of rows lying outside their cell's partition lets a caller name its own way of re-homing them.
 */
public final class AdoptionRefusedException extends RejectedInputException {

    private final long misplacedRows;

    public AdoptionRefusedException(String message, long misplacedRows) {
        super(message);
        this.misplacedRows = misplacedRows;
    }

    /** Rows outside the partition of their geometry's cell, which adopting with re-homing would move; 0 for none. */
    public long misplacedRows() {
        return misplacedRows;
    }
}
