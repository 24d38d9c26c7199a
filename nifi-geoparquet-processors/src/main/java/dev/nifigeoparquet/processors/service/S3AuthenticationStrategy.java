package dev.nifigeoparquet.processors.service;

import dev.nifigeoparquet.processors.migration.StoredChoice;

/** Where an S3 archive's credentials come from. */
public enum S3AuthenticationStrategy implements StoredChoice {
    CREDENTIALS_SERVICE(
            "AWS Credentials Provider Service",
            "The AWS Credentials Provider Service gives them, as it gives NiFi's own AWS processors theirs: the default"
                    + " chain, access keys, an assumed role, a profile or a web identity, configured once and shared."),
    ACCESS_KEYS(
            "Access Keys",
            "S3 Access Key ID and S3 Secret Access Key, with S3 Session Token for temporary credentials: for an"
                    + " S3-compatible store's static keys."),
    DEFAULT_CHAIN(
            "Default Credentials Chain",
            "The AWS SDK's default chain on the NiFi host: environment variables, the profile file, web identity, the"
                    + " container or instance role.");

    private final String displayName;
    private final String description;

    S3AuthenticationStrategy(String displayName, String description) {
        this.displayName = displayName;
        this.description = description;
    }

    @Override
    public String getDisplayName() {
        return displayName;
    }

    @Override
    public String getDescription() {
        return description;
    }
}
