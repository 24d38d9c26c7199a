package dev.nifigeoparquet.archive.s3;

import dev.nifigeoparquet.archive.storage.StorageMeter;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.s3.model.AbortMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.DeleteObjectRequest;
import software.amazon.awssdk.services.s3.model.DeleteObjectsRequest;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.HeadBucketRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;

/**
 * Counts every HTTP request the S3 client sends, retries included (each attempt is billed), by billing class, on
 * the thread that sends it, into the {@link StorageMeter} measurements open there. Body bytes are counted where
 * the storage reads or writes them, so that a download counts what was actually received.
 */
final class RequestCounter implements ExecutionInterceptor {

    @Override
    public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
        SdkRequest request = context.request();
        if (request instanceof GetObjectRequest
                || request instanceof HeadObjectRequest
                || request instanceof HeadBucketRequest) {
            StorageMeter.recordGet();
        } else if (request instanceof ListObjectsV2Request) {
            StorageMeter.recordList();
        } else if (request instanceof DeleteObjectRequest
                || request instanceof DeleteObjectsRequest
                || request instanceof AbortMultipartUploadRequest) {
            StorageMeter.recordDelete();
        } else {
            // PutObject, CreateMultipartUpload, UploadPart, CompleteMultipartUpload, CopyObject: PUT-class requests.
            StorageMeter.recordPut();
        }
    }
}
