//! `assert_surface_snapshot!`: a server's [`Surface`] reviewed with insta, as
//! `assert_response_snapshot!` reviews a response.

use crate::surface::Surface;
use serde_json::Value;

/// The JSON a surface snapshot holds. Not public API: `assert_surface_snapshot!` calls it.
/// Panics, at the test's line, on an empty surface: its snapshot would test nothing.
#[doc(hidden)]
#[track_caller]
pub fn __surface_json(surface: &Surface) -> Value {
    if surface.is_empty() {
        panic!(
            "assert_surface_snapshot!: the surface is empty (no tool, resource, template or prompt was listed to the caller that fetched it), so its snapshot would test nothing; a definition behind a scope may be listed only to a caller that holds it (fetch through a context with its scopes). To snapshot an empty surface on purpose: insta::assert_json_snapshot!(surface.to_json())"
        );
    }
    surface.to_json()
}

/// Snapshots a server's [`Surface`](crate::surface::Surface) with
/// [`insta`](https://docs.rs/insta): the normalized document (`capabilities`, `prompts`,
/// `resourceTemplates`, `resources`, `tools`, each sorted), so the snapshot changes when the
/// surface does and `cargo insta review` shows what changed. Takes an optional snapshot name
/// first, like `insta::assert_json_snapshot!`. Needs the `insta` feature.
///
/// Named as `assert_response_snapshot!` names an unnamed snapshot: after the test function,
/// with the case of an rstest or test-case test as insta's snapshot suffix.
///
/// An empty surface (nothing listed to the caller that fetched it) fails: its snapshot would
/// test nothing.
///
/// A snapshot shows any change; to tell a breaking one from a reworded description, compare
/// surfaces with [`diff`](crate::surface::diff()) (or `mcp-test diff`).
///
/// ```ignore
/// #[mcp_test(server = weather)]
/// async fn the_surface_is_reviewed(mcp: TestContext) {
///     let surface = mcp_test::surface::Surface::fetch(&mcp).await.unwrap();
///     // snapshots/<test file>__the_surface_is_reviewed.snap
///     mcp_test::assert_surface_snapshot!(surface);
///     // snapshots/<test file>__weather_surface.snap
///     mcp_test::assert_surface_snapshot!("weather_surface", surface);
/// }
/// ```
#[cfg(feature = "insta")]
#[macro_export]
macro_rules! assert_surface_snapshot {
    ($surface:expr $(,)?) => {{
        // A case of an rstest or test-case test: its name is the snapshot's suffix.
        fn __mcp_test_snapshot_site() {}
        let _case_guard =
            $crate::testing::__case_guard(::core::any::type_name_of_val(&__mcp_test_snapshot_site));
        $crate::assert_surface_snapshot!(::core::option::Option::None::<&str>, $surface)
    }};
    ($name:expr, $surface:expr $(,)?) => {
        $crate::__private::insta::assert_json_snapshot!(
            $name,
            $crate::testing::__surface_json(&$surface),
            ::core::stringify!($surface)
        )
    };
}
