#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/x509v3.h>

/// OpenSSL's SNI setter is a macro: a function Swift can call.
static inline int postmortem_tls_set_server_name(SSL *ssl, const char *name) {
    return (int)SSL_set_tlsext_host_name(ssl, name);
}

/// OpenSSL's minimum-version setter is a macro: a function Swift can call.
static inline int postmortem_tls_require_tls12(SSL_CTX *context) {
    return (int)SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION);
}

/// SSL_OP_IGNORE_UNEXPECTED_EOF, a macro of a 64-bit constant Swift does not import: a server that closes without
/// close_notify ends a body read to the connection's end, as browsers and curl take it.
static inline void postmortem_tls_accept_unannounced_close(SSL_CTX *context) {
#ifdef SSL_OP_IGNORE_UNEXPECTED_EOF
    SSL_CTX_set_options(context, SSL_OP_IGNORE_UNEXPECTED_EOF);
#endif
}
