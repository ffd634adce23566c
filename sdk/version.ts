/** Version of this SDK, sent in `User-Agent`. A unit test keeps it equal to package.json's. */
export const SDK_VERSION = "0.2.0";
