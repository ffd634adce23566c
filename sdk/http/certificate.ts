import { WwsError } from "../errors";

/**
 * The TLS failures that are about the service's certificate: trying again meets the same
 * certificate, so they are final at once (never retried, never reconnected).
 */
/** Codes of a certificate no CA this process trusts signed: trusting its CA is the fix. */
const UNTRUSTED_CODES: ReadonlySet<string> = new Set([
  // No chain to a trusted CA: a private CA, or a server that does not send its intermediates.
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "UNABLE_TO_GET_ISSUER_CERT",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "CERT_UNTRUSTED",
]);

/**
 * The TLS failures that are about the service's certificate: trying again meets the same
 * certificate, so they are final at once (never retried, never reconnected).
 */
const CERTIFICATE_CODES: ReadonlySet<string> = new Set([
  ...UNTRUSTED_CODES,
  // A broken chain.
  "CERT_SIGNATURE_FAILURE",
  "CERT_CHAIN_TOO_LONG",
  "INVALID_CA",
  // Trusted, but not for this host or not now.
  "ERR_TLS_CERT_ALTNAME_INVALID",
  "HOSTNAME_MISMATCH",
  "CERT_HAS_EXPIRED",
  "CERT_NOT_YET_VALID",
  "CERT_REVOKED",
  "CERT_REJECTED",
  "INVALID_PURPOSE",
]);

interface CertificateFailure {
  /** OpenSSL's or Node's code, `UNABLE_TO_VERIFY_LEAF_SIGNATURE`. */
  code: string;
  /** Its words, `unable to verify the first certificate`. */
  reason: string;
  /** Whether trusting a CA is the fix (the issuer is unknown), rather than the host name or the dates. */
  untrusted: boolean;
}

/** The certificate failure `err` is (or wraps, as a proxy tunnel's error does), if any. */
function certificateFailure(err: unknown): CertificateFailure | undefined {
  // Not `instanceof Error`: socket errors may come from another realm (a test sandbox, a vm).
  let e = err as { code?: unknown; message?: unknown; cause?: unknown } | null | undefined;
  for (let depth = 0; typeof e === "object" && e !== null && depth < 5; depth++, e = e.cause as typeof e) {
    const code = e.code;
    if (typeof code === "string" && CERTIFICATE_CODES.has(code))
      return { code, reason: String(e.message ?? code), untrusted: UNTRUSTED_CODES.has(code) };
  }
  return undefined;
}

/** The service's TLS certificate was refused (unknown CA, another host, expired): final, never retried. */
export class CertificateError extends WwsError {
  constructor(
    operation: string,
    readonly certificateCode: string, // `UNABLE_TO_VERIFY_LEAF_SIGNATURE`
    reason: string,
    untrusted: boolean,
    cause: unknown,
  ) {
    const fix = untrusted
      ? "If the service's certificate comes from a private CA, trust that CA: the caCerts setting " +
        "(`pulumi config set wws:caCerts ./ca.pem`, or WWS_CA_CERTS; the SDK's `caCerts` option), " +
        "or NODE_EXTRA_CA_CERTS=<PEM file> for the whole Node process"
      : "Check that the base URL names the host the certificate is for, and that the certificate is valid today";
    super(
      "certificate_refused",
      `${operation} failed: the service's TLS certificate was refused (${reason}; ${certificateCode}). ` +
        `Retrying cannot help. ${fix}.`,
      { cause },
    );
  }
}

/** The `CertificateError` of `operation` that `err` is (or wraps), if it is a certificate failure. */
export function certificateErrorOf(operation: string, err: unknown): CertificateError | undefined {
  const cert = certificateFailure(err);
  return cert && new CertificateError(operation, cert.code, cert.reason, cert.untrusted, err);
}
