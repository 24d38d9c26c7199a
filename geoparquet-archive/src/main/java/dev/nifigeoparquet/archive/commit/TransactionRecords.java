package dev.nifigeoparquet.archive.commit;

import dev.nifigeoparquet.archive.error.ArchiveFormatException;
import dev.nifigeoparquet.archive.format.ArchiveLayout;
import dev.nifigeoparquet.archive.format.TransactionDecision;
import dev.nifigeoparquet.archive.format.TransactionDecisionParser;
import dev.nifigeoparquet.archive.storage.ArchiveStorage;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.time.Instant;
import java.util.List;

/** Reads and decides transaction records; deciding is one exclusive creation, so the first decision stands. */
public final class TransactionRecords {

    private TransactionRecords() {}

    /** The decision, or null while the transaction is undecided. */
    public static TransactionDecision read(ArchiveStorage storage, String transaction) throws IOException {
        String path = ArchiveLayout.transactionDecision(transaction);
        byte[] json;
        try {
            json = storage.readAllBytes(path);
        } catch (NoSuchFileException undecided) {
            return null;
        }
        String file = storage.describe() + "/" + path;
        TransactionDecision decision = TransactionDecisionParser.fromJson(json, file);
        if (!transaction.equals(decision.transaction())) {
            throw new ArchiveFormatException(file, "the decision names transaction " + decision.transaction());
        }
        return decision;
    }

    /**
     * Records a decision unless one exists; returns the decision that stands (ours, or the one made first).
     */
    public static TransactionDecision decide(
            ArchiveStorage storage,
            String transaction,
            String operationId,
            TransactionDecision.Outcome outcome,
            Instant now,
            List<String> participants)
            throws IOException {
        TransactionDecision decision = new TransactionDecision(transaction, operationId, outcome, now, participants);
        try {
            storage.createExclusive(
                    ArchiveLayout.transactionDecision(transaction), TransactionDecisionParser.toJson(decision));
            return decision;
        } catch (FileAlreadyExistsException decidedFirst) {
            TransactionDecision standing = read(storage, transaction);
            if (standing == null) {
                throw new IOException(
                        "Transaction " + transaction + " has a decision record that cannot be read", decidedFirst);
            }
            return standing;
        }
    }
}
