/**
 * Verification (docs/archive-format.md, section 9): every file against its commit entry and the canonical footer, row
 * counts reconciled from the commit records, every key in one partition and in its cell. API: {@link
 * dev.nifigeoparquet.archive.verify.ArchiveVerifier}, {@link dev.nifigeoparquet.archive.verify.VerifyOptions}, {@link
 * dev.nifigeoparquet.archive.verify.VerificationReport}, {@link dev.nifigeoparquet.archive.verify.Problem}, {@link
 * dev.nifigeoparquet.archive.verify.ProblemKind}, {@link dev.nifigeoparquet.archive.verify.CommittedOperation}.
 */
package dev.nifigeoparquet.archive.verify;
