//! [`HttpOptions`]: what an HTTP client sends with every request. Only data, so it is here
//! with no feature: a [`Connection`](super::Connection) names it for a target reached over
//! HTTP. Adding a header needs feature `http`, adding a certificate authority feature `tls`.

use http::{HeaderName, HeaderValue};

/// How the HTTP client reaches a server: headers sent on every request (credentials such as
/// `Authorization: Bearer ...`) and, with feature `tls`, certificate authorities to trust
/// beside webpki's roots. [`Client::http_with`](crate::client::Client::http_with) takes them;
/// the checker's raw probes and the ad-hoc commands send the same.
///
/// A header value is marked sensitive, and `Debug` shows header names only, so a token never
/// ends up in a log.
///
/// ```
/// use mcp_test::target::HttpOptions;
/// let options = HttpOptions::new();
/// assert!(options.header_names().is_empty());
/// assert_eq!(options.header_value("authorization"), None);
/// ```
///
/// With feature `http` ([`client::HttpOptions`](crate::client::HttpOptions) is the same type):
///
/// ```
/// # #[cfg(feature = "http")]
/// # fn main() -> Result<(), mcp_test::client::ClientError> {
/// use mcp_test::client::HttpOptions;
/// let options = HttpOptions::new()
///     .header("Authorization", "Bearer s3cret")?
///     .header_line("X-Team: blue")?;
/// assert_eq!(options.header_names(), ["authorization", "x-team"]);
/// assert!(!format!("{options:?}").contains("s3cret"));
/// let err = HttpOptions::new().header_line("no colon").unwrap_err();
/// assert!(err.to_string().contains("Name: value"), "{err}");
/// # Ok(())
/// # }
/// # #[cfg(not(feature = "http"))]
/// # fn main() {}
/// ```
#[derive(Clone, Default, PartialEq)]
pub struct HttpOptions {
    /// The extra headers, in the order given.
    pub(crate) headers: Vec<(HeaderName, HeaderValue)>,
    /// The DER of each certificate authority to trust beside webpki's roots: kept with any
    /// features, read only by the TLS connector (feature `tls`).
    pub(crate) ca_certs: Vec<Vec<u8>>,
}

impl std::fmt::Debug for HttpOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpOptions")
            .field("headers", &self.header_names())
            .field("ca_certs", &self.ca_certs.len())
            .finish()
    }
}

impl HttpOptions {
    /// No extra header, webpki's roots only.
    pub fn new() -> Self {
        HttpOptions::default()
    }

    /// The names of the extra headers, lowercase, in the order given.
    pub fn header_names(&self) -> Vec<String> {
        self.headers.iter().map(|(n, _)| n.to_string()).collect()
    }

    /// The value of the first extra header named `name` (any case), if it is text.
    pub fn header_value(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.as_str().eq_ignore_ascii_case(name))
            .and_then(|(_, v)| v.to_str().ok())
    }
}

#[cfg(feature = "http")]
use super::client_error::ClientError;

#[cfg(feature = "http")]
impl HttpOptions {
    /// The same options without any header named `name` (any case).
    #[cfg_attr(not(feature = "cases"), allow(dead_code))]
    #[doc(hidden)]
    pub fn without_header(&self, name: &str) -> HttpOptions {
        let mut out = self.clone();
        out.headers
            .retain(|(n, _)| !n.as_str().eq_ignore_ascii_case(name));
        out
    }

    /// Sends `name: value` on every request (a second value for the same name is sent as
    /// well). An error names the header and what is wrong with it.
    pub fn header(mut self, name: &str, value: &str) -> Result<Self, ClientError> {
        let bad = |reason: String| ClientError::BadHeader {
            header: name.to_owned(),
            reason,
        };
        let header_name = HeaderName::from_bytes(name.trim().as_bytes())
            .map_err(|e| bad(format!("not a valid header name ({e})")))?;
        let mut header_value = HeaderValue::from_str(value.trim()).map_err(|e| {
            bad(format!(
                "the value cannot be sent in a header ({e}; control characters and newlines are not allowed)"
            ))
        })?;
        header_value.set_sensitive(true);
        self.headers.push((header_name, header_value));
        Ok(self)
    }

    /// [`HttpOptions::header`] from one `Name: value` line, as `curl -H` takes it.
    ///
    /// An error shows the start of the line only, never a value: it may be a secret.
    pub fn header_line(self, line: &str) -> Result<Self, ClientError> {
        // What an error may show: the first word, which is the name when there is one.
        let shown = || {
            let first = line.split([' ', '\t', ':']).next().unwrap_or("");
            if first.len() < line.trim_end().len() {
                format!("{first} ...")
            } else {
                first.to_owned()
            }
        };
        let Some((name, value)) = line.split_once(':') else {
            return Err(ClientError::BadHeader {
                header: shown(),
                reason: "expected `Name: value`".to_owned(),
            });
        };
        if name.trim().is_empty() {
            return Err(ClientError::BadHeader {
                header: shown(),
                reason: "the name before `:` is empty; expected `Name: value`".to_owned(),
            });
        }
        self.header(name, value)
    }
}

#[cfg(feature = "tls")]
impl HttpOptions {
    /// Trusts the certificate authorities of `pem` (one or more `CERTIFICATE` blocks) beside
    /// webpki's roots, for a server whose certificate a private CA signed. An error says why
    /// the text holds no usable certificate.
    ///
    /// ```
    /// let err = mcp_test::client::HttpOptions::new().ca_cert_pem(b"not a certificate").unwrap_err();
    /// assert!(err.to_string().contains("CERTIFICATE"), "{err}");
    /// ```
    pub fn ca_cert_pem(mut self, pem: &[u8]) -> Result<Self, ClientError> {
        use rustls_pki_types::pem::PemObject;
        let bad = |reason: String| ClientError::Tls { reason };
        let mut found = Vec::new();
        for cert in rustls_pki_types::CertificateDer::pem_slice_iter(pem) {
            let cert =
                cert.map_err(|e| bad(format!("the CA certificate is not valid PEM: {e}")))?;
            found.push(cert);
        }
        if found.is_empty() {
            return Err(bad(
                "no `-----BEGIN CERTIFICATE-----` block in the CA certificate".to_owned(),
            ));
        }
        let mut store = rustls::RootCertStore::empty();
        for cert in &found {
            store.add(cert.clone()).map_err(|e| {
                bad(format!(
                    "the CA certificate cannot serve as a trust anchor: {e}"
                ))
            })?;
        }
        self.ca_certs
            .extend(found.into_iter().map(|cert| cert.to_vec()));
        Ok(self)
    }

    /// [`HttpOptions::ca_cert_pem`] of a file; an error names the file.
    pub fn ca_cert_file(self, path: impl AsRef<std::path::Path>) -> Result<Self, ClientError> {
        let path = path.as_ref();
        let pem = std::fs::read(path).map_err(|e| ClientError::Tls {
            reason: format!("cannot read the CA certificate {}: {e}", path.display()),
        })?;
        self.ca_cert_pem(&pem).map_err(|e| match e {
            ClientError::Tls { reason } => ClientError::Tls {
                reason: format!("{}: {reason}", path.display()),
            },
            other => other,
        })
    }
}
