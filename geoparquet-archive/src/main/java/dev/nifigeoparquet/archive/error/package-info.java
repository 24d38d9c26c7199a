/**
 * What an operation's failure means to its caller: every exception an adapter has to tell apart, each of one {@link
 * dev.nifigeoparquet.archive.error.FailureKind} (transient, bad input, operator action), so the command line and the
 * processors route failures alike. API: the whole package.
 */
package dev.nifigeoparquet.archive.error;
