//! stdio framing: one message per line. Lines of stdout that are not messages are either
//! stray output or a message written over several lines (pretty-printed JSON), which breaks
//! another rule; [`split_messages`] tells them apart.

use serde_json::Value;

/// How many JSON-RPC messages the `lines`, joined with newlines, hold when they are nothing
/// else and there are more lines than messages (a message broken over lines); `None` otherwise.
pub(crate) fn split_messages(lines: &[&str]) -> Option<usize> {
    if lines.len() < 2 {
        return None;
    }
    let joined = lines.join("\n");
    let mut count = 0;
    for value in serde_json::Deserializer::from_str(&joined).into_iter::<Value>() {
        value.ok()?.get("jsonrpc")?;
        count += 1;
    }
    (count > 0 && count < lines.len()).then_some(count)
}

#[cfg(test)]
mod tests {
    use super::split_messages;

    #[test]
    fn lines_that_join_into_messages_are_a_message_broken_over_lines() {
        let pretty = "{\n  \"jsonrpc\": \"2.0\",\n  \"method\": \"notifications/message\"\n}";
        let lines: Vec<&str> = pretty.lines().collect();
        assert_eq!(split_messages(&lines), Some(1));
        // Two pretty-printed messages in a row.
        let twice: Vec<&str> = lines.iter().chain(lines.iter()).copied().collect();
        assert_eq!(split_messages(&twice), Some(2));
    }

    #[test]
    fn stray_text_or_json_that_is_no_message_is_not() {
        assert_eq!(split_messages(&["starting server", "listening"]), None);
        assert_eq!(split_messages(&["{", "  \"level\": 1", "}"]), None);
        let with_noise = ["{", "\"jsonrpc\": \"2.0\"", "}", "done"];
        assert_eq!(split_messages(&with_noise), None);
        // One line is one line: nothing was broken.
        assert_eq!(split_messages(&["{\"jsonrpc\": \"2.0\"}"]), None);
    }
}
