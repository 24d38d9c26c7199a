/** How a choice is stored in a flow, and how flows saved by earlier versions of the bundle load in this one. */
package dev.nifigeoparquet.processors.migration;
