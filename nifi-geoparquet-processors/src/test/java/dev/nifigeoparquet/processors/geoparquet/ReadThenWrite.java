package dev.nifigeoparquet.processors.geoparquet;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.nifi.components.PropertyDescriptor;
import org.apache.nifi.flowfile.FlowFile;
import org.apache.nifi.processor.AbstractProcessor;
import org.apache.nifi.processor.ProcessContext;
import org.apache.nifi.processor.ProcessSession;
import org.apache.nifi.processor.Relationship;
import org.apache.nifi.serialization.RecordReader;
import org.apache.nifi.serialization.RecordReaderFactory;
import org.apache.nifi.serialization.RecordSetWriter;
import org.apache.nifi.serialization.RecordSetWriterFactory;
import org.apache.nifi.serialization.record.Record;

/** A minimal ConvertRecord: reads every record with the reader and writes it with the writer. */
public class ReadThenWrite extends AbstractProcessor {

    static final PropertyDescriptor READER = new PropertyDescriptor.Builder()
            .name("Record Reader")
            .identifiesControllerService(RecordReaderFactory.class)
            .required(true)
            .build();
    static final PropertyDescriptor WRITER = new PropertyDescriptor.Builder()
            .name("Record Writer")
            .identifiesControllerService(RecordSetWriterFactory.class)
            .required(true)
            .build();
    static final Relationship SUCCESS =
            new Relationship.Builder().name("success").build();
    static final Relationship FAILURE =
            new Relationship.Builder().name("failure").build();

    @Override
    protected List<PropertyDescriptor> getSupportedPropertyDescriptors() {
        return List.of(READER, WRITER);
    }

    @Override
    public Set<Relationship> getRelationships() {
        return Set.of(SUCCESS, FAILURE);
    }

    @Override
    public void onTrigger(ProcessContext context, ProcessSession session) {
        FlowFile flowFile = session.get();
        if (flowFile == null) {
            return;
        }
        RecordReaderFactory readerFactory = context.getProperty(READER).asControllerService(RecordReaderFactory.class);
        RecordSetWriterFactory writerFactory =
                context.getProperty(WRITER).asControllerService(RecordSetWriterFactory.class);
        Map<String, String> attributes = flowFile.getAttributes();
        try {
            FlowFile original = flowFile;
            flowFile = session.write(flowFile, (in, out) -> {
                try (RecordReader reader = readerFactory.createRecordReader(original, in, getLogger());
                        RecordSetWriter writer = writerFactory.createWriter(
                                getLogger(),
                                writerFactory.getSchema(attributes, reader.getSchema()),
                                out,
                                attributes)) {
                    writer.beginRecordSet();
                    Record record;
                    while ((record = reader.nextRecord()) != null) {
                        writer.write(record);
                    }
                    writer.finishRecordSet();
                } catch (Exception e) {
                    throw new IOException(e.getMessage(), e);
                }
            });
            session.transfer(flowFile, SUCCESS);
        } catch (Exception e) {
            getLogger().error("Cannot convert {}", flowFile, e);
            session.transfer(
                    session.putAttribute(
                            flowFile,
                            "error",
                            String.valueOf(e.getCause() != null ? e.getCause().getMessage() : e.getMessage())),
                    FAILURE);
        }
    }
}
