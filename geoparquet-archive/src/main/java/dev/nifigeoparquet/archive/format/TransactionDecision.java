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
 * @param participants the partitions (cells and index shards) with an entry of this transaction
 */
public record TransactionDecision(String transaction, String operationId, Outcome outcome, Instant decidedAt,
                                  List<String> participants) {

    public enum Outcome { COMMITTED, ABORTED }

    public TransactionDecision {
        participants = List.copyOf(participants);
    }
}
