import CTLS
import Glibc

/// OpenSSL's client context, made once per downloader: TLS 1.2 at least, the peer's certificate checked against the
/// system's certificate authorities.
final class TLSContext: @unchecked Sendable {
    // An SSL_CTX is safe to share between threads once configured; nothing changes it after init.
    let context: OpaquePointer
    /// Where the certificate authorities were read from; empty when none were found.
    let authorities: [String]

    /// Certificate bundles of the common distributions, for a static binary whose OpenSSL was built for another one's
    /// layout (Debian's looks in /usr/lib/ssl): Debian and Ubuntu, Fedora and RHEL, openSUSE, RHEL 7, Alpine.
    private static let bundles = [
        "/etc/ssl/certs/ca-certificates.crt", "/etc/pki/tls/certs/ca-bundle.crt", "/etc/ssl/ca-bundle.pem",
        "/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem", "/etc/ssl/cert.pem"
    ]

    /// - Parameter authorities: a PEM file of the only certificate authorities to trust; `nil` for the system's.
    init(authorities file: String?) throws(HTTPFailure) {
        guard let context = SSL_CTX_new(TLS_client_method()) else { throw .tls(Self.lastError() ?? "SSL_CTX_new") }
        self.context = context
        SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
        _ = postmortem_tls_require_tls12(context)
        postmortem_tls_accept_unannounced_close(context)
        if let file {
            guard SSL_CTX_load_verify_locations(context, file, nil) == 1 else {
                SSL_CTX_free(context)
                throw .tls("\(file): \(Self.lastError() ?? "no certificates")")
            }
            authorities = [file]
            return
        }
        // OpenSSL's places: SSL_CERT_FILE and SSL_CERT_DIR when set, else those of the distribution it was built on.
        _ = SSL_CTX_set_default_verify_paths(context)
        let places = [
            getenv("SSL_CERT_FILE").map { String(cString: $0) } ?? String(cString: X509_get_default_cert_file()),
            getenv("SSL_CERT_DIR").map { String(cString: $0) } ?? String(cString: X509_get_default_cert_dir())
        ]
        var authorities = places.filter { access($0, R_OK) == 0 }
        // None there: a static binary on a distribution of another layout reads that one's bundle.
        if authorities.isEmpty, let bundle = Self.bundles.first(where: { access($0, R_OK) == 0 }),
            SSL_CTX_load_verify_locations(context, bundle, nil) == 1
        {
            authorities = [bundle]
        }
        ERR_clear_error()
        self.authorities = authorities
    }

    deinit { SSL_CTX_free(context) }

    /// The oldest error of this thread's OpenSSL queue, in OpenSSL's words; the queue is emptied.
    static func lastError() -> String? {
        let code = ERR_get_error()
        defer { ERR_clear_error() }
        guard code != 0 else { return nil }
        var text = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &text, text.count)
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
