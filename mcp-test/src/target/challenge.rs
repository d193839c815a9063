//! [`Challenge`]: a `WWW-Authenticate` header read (RFC 9110 §11.6.1, RFC 6750 §3): the
//! `error`, `scope` and `resource_metadata` (RFC 9728 §5.1) of a 401 or 403, which
//! [`ClientError::Unauthorized`](super::client_error::ClientError::Unauthorized) and
//! [`ClientError::Forbidden`](super::client_error::ClientError::Forbidden) carry.
//!
//! Defined in the target layer beside the error that holds it; reached by users as
//! `client::Challenge`.

/// A `WWW-Authenticate` challenge, read: what a 401 or 403 asks of the client's token.
///
/// ```
/// use mcp_test::client::Challenge;
/// let challenge = Challenge::parse(
///     r#"Bearer error="insufficient_scope", scope="files:read files:write", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource""#,
/// );
/// assert!(challenge.is_insufficient_scope());
/// assert_eq!(challenge.scope, ["files:read", "files:write"]);
/// assert_eq!(
///     challenge.resource_metadata.as_deref(),
///     Some("https://mcp.example.com/.well-known/oauth-protected-resource")
/// );
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Challenge {
    /// The header as sent (several headers joined with `, `).
    pub header: String,
    /// `error` (RFC 6750 §3.1): `invalid_token`, `insufficient_scope`, ...
    pub error: Option<String>,
    /// `error_description`: the server's words.
    pub error_description: Option<String>,
    /// `scope`, split on whitespace: the scopes the request needs (empty when not named).
    pub scope: Vec<String>,
    /// `resource_metadata`: the URL of the protected-resource metadata (RFC 9728 §5.1).
    pub resource_metadata: Option<String>,
}

impl Challenge {
    /// Reads the parameters of `header` (a `WWW-Authenticate` value; of several challenges,
    /// each parameter is taken from the first that has it). Never fails: what is not there
    /// is `None` or empty.
    pub fn parse(header: &str) -> Challenge {
        Challenge {
            header: header.to_owned(),
            error: challenge_param(header, "error"),
            error_description: challenge_param(header, "error_description"),
            scope: challenge_param(header, "scope")
                .map(|s| s.split_whitespace().map(str::to_owned).collect())
                .unwrap_or_default(),
            resource_metadata: challenge_param(header, "resource_metadata"),
        }
    }

    /// Whether it says `error="insufficient_scope"`: the token is good but short of scope,
    /// and [`scope`](Self::scope) is what to ask for in a step-up authorization.
    pub fn is_insufficient_scope(&self) -> bool {
        self.error.as_deref() == Some("insufficient_scope")
    }
}

/// The value of auth parameter `name` (any case) in a `WWW-Authenticate` header value, as a
/// token or an unescaped quoted string; `None` when no challenge carries it.
///
/// The header may hold several challenges (`Bearer a="1", Basic realm="x"`); the parameters
/// of all are searched, in order.
pub fn challenge_param(header: &str, name: &str) -> Option<String> {
    let bytes = header.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        // A token: a scheme or a parameter name.
        let start = i;
        while i < bytes.len() && !matches!(bytes[i], b'=' | b',' | b' ' | b'\t' | b'"') {
            i += 1;
        }
        let token = &header[start..i];
        while i < bytes.len() && matches!(bytes[i], b' ' | b'\t') {
            i += 1;
        }
        if i < bytes.len() && bytes[i] == b'=' && !token.is_empty() {
            i += 1;
            while i < bytes.len() && matches!(bytes[i], b' ' | b'\t') {
                i += 1;
            }
            let value = if i < bytes.len() && bytes[i] == b'"' {
                i += 1;
                let mut value = String::new();
                let mut chars = header[i..].char_indices();
                let mut end = header.len();
                while let Some((at, c)) = chars.next() {
                    match c {
                        '\\' => {
                            if let Some((_, escaped)) = chars.next() {
                                value.push(escaped);
                            }
                        }
                        '"' => {
                            end = i + at + 1;
                            break;
                        }
                        c => value.push(c),
                    }
                }
                i = end;
                value
            } else {
                let start = i;
                while i < bytes.len() && !matches!(bytes[i], b',' | b' ' | b'\t') {
                    i += 1;
                }
                header[start..i].to_owned()
            };
            if token.eq_ignore_ascii_case(name) {
                return Some(value);
            }
        } else if i == start {
            // A separator (or a stray quote): step over it.
            i += 1;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::challenge_param;

    #[test]
    fn finds_quoted_and_bare_parameters_in_any_challenge() {
        let header = r#"Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource", scope="files:read a\"b""#;
        assert_eq!(
            challenge_param(header, "resource_metadata").as_deref(),
            Some("https://mcp.example.com/.well-known/oauth-protected-resource")
        );
        assert_eq!(
            challenge_param(header, "scope").as_deref(),
            Some("files:read a\"b")
        );
        assert_eq!(
            challenge_param(
                "Basic realm=x, Bearer Resource_Metadata=http://h/m",
                "resource_metadata"
            )
            .as_deref(),
            Some("http://h/m")
        );
        assert_eq!(challenge_param("Bearer", "resource_metadata"), None);
        assert_eq!(
            challenge_param("Bearer realm=\"unterminated", "realm").as_deref(),
            Some("unterminated")
        );
        assert_eq!(challenge_param("", "x"), None);
        assert_eq!(challenge_param("=\"\",,==", "x"), None);
    }
}
