package dev.nifigeoparquet.archive.format;

import java.time.Instant;
import java.util.List;

/**
 * The decision record of a multi-partition transaction ({@code _geoparquet_archive/txn/<id>.json}), created
 * exclusively exactly once: by the writer when every participant's entry exists ({@link Outcome#COMMITTED}), or
 * by the writer or a recovering writer to give the transaction up ({@link Outcome#ABORTED}). Whoever creates
 * it first decides.
 *
 * @param transaction  the transaction id
 * @param operationId  the operation it carried
 * @param outcome      the decision
 * @param decidedAt    when it was decided
 * @param participants the partitions (cells and index shards) the deciding writer knew to have an entry of this
 *                     transaction: every participant for the writer's own decision, the partition it found the entry
 *                     in for a recovering writer's abort. For operators; the protocol does not read it
 */
public record TransactionDecision(
        String transaction, String operationId, Outcome outcome, Instant decidedAt, List<String> participants) {

    /** The decision record format this implementation writes and reads up to. */
    public static final int FORMAT_VERSION = 1;

    public enum Outcome {
        COMMITTED,
        ABORTED
    }

    public TransactionDecision {
        participants = List.copyOf(participants);
    }
}
