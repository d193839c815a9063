//! Reading `WWW-Authenticate` challenges (RFC 9110 §11.6.1): the auth parameters a 401 or 403
//! names, such as the `resource_metadata` URL of RFC 9728 §5.1. Defined in
//! `target::challenge`, beside the error that carries a [`Challenge`].

pub use crate::target::challenge::{Challenge, challenge_param};
