//! Reading `WWW-Authenticate` challenges (RFC 9110 §11.6.1): the auth parameters a 401 names,
//! such as the `resource_metadata` URL of RFC 9728 §5.1.

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
