//! The probes of `check`, by area. Each file holds the probes of one area, run from the rows
//! of the table (`crate::table`) over the checker (`crate::checker`).

pub(crate) mod authorization;
pub(crate) mod catalog;
pub(crate) mod extension_fallback;
pub(crate) mod header_case;
pub(crate) mod http_exchange;
pub(crate) mod http_probes;
pub(crate) mod initialize_result;
pub(crate) mod input_responses;
pub(crate) mod legacy_streams;
pub(crate) mod no_response_to_notification;
pub(crate) mod notifications;
pub(crate) mod param_headers;
pub(crate) mod properties;
pub(crate) mod protocol;
pub(crate) mod raw_http;
pub(crate) mod result_server_info;
pub(crate) mod rounds;
pub(crate) mod stateless;
pub(crate) mod stdio_framing;
pub(crate) mod stream_related;
pub(crate) mod tasks;
pub(crate) mod tasks_listen_undeclared;
