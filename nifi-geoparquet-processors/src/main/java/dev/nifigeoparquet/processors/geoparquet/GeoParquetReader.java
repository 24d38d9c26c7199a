package dev.nifigeoparquet.processors.geoparquet;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.nifi.annotation.documentation.CapabilityDescription;
import org.apache.nifi.annotation.documentation.SeeAlso;
import org.apache.nifi.annotation.documentation.Tags;
import org.apache.nifi.annotation.lifecycle.OnEnabled;
import org.apache.nifi.components.PropertyDescriptor;
import org.apache.nifi.controller.AbstractControllerService;
import org.apache.nifi.controller.ConfigurationContext;
import org.apache.nifi.expression.ExpressionLanguageScope;
import org.apache.nifi.flowfile.attributes.CoreAttributes;
import org.apache.nifi.logging.ComponentLog;
import org.apache.nifi.processor.DataUnit;
import org.apache.nifi.processor.util.StandardValidators;
import org.apache.nifi.serialization.MalformedRecordException;
import org.apache.nifi.serialization.RecordReader;
import org.apache.nifi.serialization.RecordReaderFactory;

@Tags({"geoparquet", "parquet", "geospatial", "gis", "wkb", "wkt", "geoarrow", "record", "reader", "parse"})
@CapabilityDescription("Reads GeoParquet 1.0 and 1.1 files (geometries encoded as WKB or in the GeoArrow native "
        + "layouts) and Parquet files with the native GEOMETRY or GEOGRAPHY logical type, returning each row as a record. "
        + "The record schema comes from the file: every Parquet column maps to the NiFi type that holds its values "
        + "exactly (timestamps keep their instant or wall-clock meaning and full precision, decimals their precision and "
        + "scale, binary stays bytes, lists become arrays, structs become records, maps become maps), and each geometry "
        + "column is delivered as WKB bytes or as WKT text. Because the Parquet footer is at the end of a file, the "
        + "content is first copied to a temporary file, bounded by Maximum Content Size, and deleted when the records "
        + "have been read. The file's GeoParquet metadata and Parquet schema travel with the record schema, so "
        + "GeoParquetRecordSetWriter can write the data back with the same column types and 'geo' block.")
@SeeAlso(GeoParquetRecordSetWriter.class)
public class GeoParquetReader extends AbstractControllerService implements RecordReaderFactory {

    public static final PropertyDescriptor GEOMETRY_FORMAT = new PropertyDescriptor.Builder()
            .name("Geometry Format")
            .description("How geometry column values appear in the records. WKB geometries stored as WKB are passed on "
                    + "byte for byte; geometries in a GeoArrow native layout are converted to ISO WKB.")
            .required(true)
            .allowableValues(RecordGeometryEncoding.class)
            .defaultValue(RecordGeometryEncoding.WKB)
            .build();

    public static final PropertyDescriptor MAXIMUM_CONTENT_SIZE = new PropertyDescriptor.Builder()
            .name("Maximum Content Size")
            .description("The largest FlowFile content this reader accepts. The content is copied to a temporary file "
                    + "(in the Spool Directory) before it is read, so this bounds the disk space one read may use. "
                    + "Larger content fails the read with a message naming this property.")
            .required(true)
            .addValidator(StandardValidators.DATA_SIZE_VALIDATOR)
            .defaultValue("1 GB")
            .build();

    public static final PropertyDescriptor SPOOL_DIRECTORY = new PropertyDescriptor.Builder()
            .name("Spool Directory")
            .description(
                    "Where content is copied before it is read (a Parquet footer sits at the end of the file and a "
                            + "record reader gets a forward-only stream). Empty: the JVM's temporary directory. Point it at a disk "
                            + "with room for Maximum Content Size times the reads that run at once. Copies are deleted when the "
                            + "reader is closed or the content cannot be read.")
            .required(false)
            .expressionLanguageSupported(ExpressionLanguageScope.ENVIRONMENT)
            .addValidator(StandardValidators.createDirectoryExistsValidator(true, false))
            .build();

    private static final List<PropertyDescriptor> PROPERTY_DESCRIPTORS =
            List.of(GEOMETRY_FORMAT, MAXIMUM_CONTENT_SIZE, SPOOL_DIRECTORY);

    private volatile RecordGeometryEncoding geometryFormat;
    private volatile long maximumContentBytes;
    private volatile Path spoolDirectory;

    @Override
    protected List<PropertyDescriptor> getSupportedPropertyDescriptors() {
        return PROPERTY_DESCRIPTORS;
    }

    @OnEnabled
    public void onEnabled(ConfigurationContext context) {
        geometryFormat = context.getProperty(GEOMETRY_FORMAT).asAllowableValue(RecordGeometryEncoding.class);
        maximumContentBytes =
                context.getProperty(MAXIMUM_CONTENT_SIZE).asDataSize(DataUnit.B).longValue();
        String directory = context.getProperty(SPOOL_DIRECTORY)
                .evaluateAttributeExpressions()
                .getValue();
        spoolDirectory =
                Path.of(directory == null || directory.isBlank() ? System.getProperty("java.io.tmpdir") : directory);
    }

    /**
     * Returns a {@link GeoParquetRecordReader}; the content is spooled to a temporary file first, which the
     * reader deletes when closed.
     */
    @Override
    public RecordReader createRecordReader(
            Map<String, String> variables, InputStream in, long inputLength, ComponentLog logger)
            throws MalformedRecordException, IOException {
        String filename = variables == null ? null : variables.get(CoreAttributes.FILENAME.key());
        String name = filename == null ? "FlowFile content" : filename;
        SpooledContent content = SpooledContent.spool(in, inputLength, maximumContentBytes, spoolDirectory);
        return new GeoParquetRecordReader(content, name, geometryFormat);
    }
}
