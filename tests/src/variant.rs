//! The variant server's choices (`src/bin/variant_server.rs`): every choice the spec leaves a
//! server, drawn from a seed, so that a checker can be tested on the space of legal servers
//! rather than on a few examples (`tests/variation.rs`), and the mutants of one response drawn
//! from the official schema (`mutants`, `tests/variation.rs`).
//!
//! One seed is one server: [`Variant::draw`] is a pure function of the seed, so a failing
//! seed replays (`VARIANT_SEED=N`), and the test and the binary agree on the draws without
//! talking.

pub mod mutants;
pub mod out;

use std::fmt;

/// splitmix64: a small deterministic generator, enough to spread the draws of a seed.
#[derive(Clone, Debug)]
pub struct Prng(u64);

impl Prng {
    /// The generator of `seed`.
    pub fn new(seed: u64) -> Self {
        Prng(seed ^ 0x5DEE_CE66_D1CE_4E5B)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// One of `values`.
    pub fn pick<T: Copy>(&mut self, values: &[T]) -> T {
        values[self.below(values.len())]
    }

    /// True with probability `1 / n`.
    pub fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }
}

/// Declares an axis: an enum of its values, their names, and the axis's name.
macro_rules! axis {
    ($(#[$doc:meta])* $name:ident = $axis:literal { $($(#[$vdoc:meta])* $variant:ident = $text:literal),+ $(,)? }) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum $name { $($(#[$vdoc])* $variant),+ }
        impl $name {
            /// Every value of the axis.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];
            /// The axis's name in the `variant: axis=value` lines.
            pub const AXIS: &'static str = $axis;
            /// The value's name.
            pub fn name(self) -> &'static str {
                match self { $($name::$variant => $text),+ }
            }
        }
        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result { f.write_str(self.name()) }
        }
    };
}

axis! {
    /// How stdin is read. stdio.mdx: "Messages are delimited by newlines"; a server may find
    /// them by lines or by decoding one JSON value after another (the rule that the client
    /// "MUST NOT write anything to the server's stdin that is not a valid MCP message" is what
    /// makes the second safe).
    Reader = "stdio_reader" { Lines = "lines", Stream = "stream" }
}

axis! {
    /// The order of the keys of every object written. JSON objects are unordered (RFC 8259
    /// §4: "An object is an unordered collection").
    KeyOrder = "key_order" { Sorted = "sorted", Reversed = "reversed", Shuffled = "shuffled" }
}

axis! {
    /// Insignificant whitespace between tokens (RFC 8259 §2), always on one line (stdio.mdx:
    /// "Messages MUST NOT contain embedded newlines").
    Spacing = "spacing" { Compact = "compact", Spaced = "spaced", Padded = "padded" }
}

axis! {
    /// Whether non-ASCII characters are written as they are or as `\uXXXX` escapes (RFC 8259
    /// §7: "Any character may be escaped").
    Escapes = "escapes" { Raw = "raw", Ascii = "ascii" }
}

axis! {
    /// How an HTTP request's reply is framed. streamable-http: "the server MUST either return
    /// Content-Type: text/event-stream ... or Content-Type: application/json"; the choice is
    /// the server's.
    HttpReply = "http_reply" { Json = "json", Sse = "sse", Mixed = "mixed" }
}

axis! {
    /// How an SSE event is written: with or without `event: message` (an event without a type
    /// is a `message`, per the SSE standard), an `id:`, and a `:` comment first (a keep-alive).
    SseStyle = "sse_style" { Plain = "plain", Named = "named", Commented = "commented" }
}

axis! {
    /// 2025-11-25 over HTTP: whether the server assigns a session. streamable-http 2025-11-25:
    /// "A server using the Streamable HTTP transport MAY assign a session ID at initialization
    /// time".
    HttpState = "http_state" { Stateful = "stateful", Stateless = "stateless" }
}

axis! {
    /// The shape of an `Mcp-Session-Id` (2025-11-25): "The session ID SHOULD be globally
    /// unique and cryptographically secure ... MUST only contain visible ASCII characters
    /// (ranging from 0x21 to 0x7E)".
    SessionId = "session_id" { Runtime = "runtime", Uuid = "uuid", Hex = "hex", Visible = "visible" }
}

axis! {
    /// The eras served. versioning.mdx §Backward Compatibility: a dual-era server MAY also
    /// answer `initialize`; a server may serve either revision alone.
    Eras = "eras" { Current = "2026-07-28", Legacy = "2025-11-25", Both = "both" }
}

axis! {
    /// How a server that serves 2025-11-25 alone answers a 2026-07-28 request
    /// (versioning.mdx §Backward Compatibility). `method_not_found`: it knows no
    /// `server/discover` (-32601, as the runtime answers). `discover_versions`: it answers
    /// `server/discover` with `supportedVersions` that lack 2026-07-28, and every other
    /// 2026-07-28 request with -32022 naming what it serves. `unsupported_version`: -32022
    /// for every 2026-07-28 request, `server/discover` included (HTTP 400 over Streamable
    /// HTTP). Drawn for every seed; it shows only where `eras` is 2025-11-25.
    LegacyWord = "legacy_word" {
        MethodNotFound = "method_not_found",
        Versions = "discover_versions",
        Unsupported = "unsupported_version"
    }
}

axis! {
    /// The cursors of paged lists. pagination.mdx: "The cursor is opaque".
    Cursor = "cursor" { Runtime = "runtime", Hex = "hex", Prefixed = "prefixed" }
}

axis! {
    /// What the server writes to stderr. stdio.mdx: "The server MAY write UTF-8 strings to its
    /// standard error (stderr) for any logging purposes".
    Chatter = "stderr" { Quiet = "quiet", Lines = "lines", Noisy = "noisy" }
}

axis! {
    /// How late a reply may be (well inside any client timeout), each reply drawn in turn, so
    /// replies overtake each other: JSON-RPC matches them by id.
    Latency = "latency" { None = "none", Few = "few_ms", Tens = "tens_ms", Hundred = "100ms" }
}

axis! {
    /// The wording of error messages. JSON-RPC 2.0 §5.1: "The message SHOULD be limited to a
    /// concise single sentence"; its text is the server's.
    Wording = "error_wording" { Runtime = "runtime", Terse = "terse", Verbose = "verbose" }
}

axis! {
    /// An error's `data`. JSON-RPC 2.0 §5.1: "A Primitive or Structured value that contains
    /// additional information about the error. This may be omitted." A `data` the spec gives a
    /// shape (-32021, -32022) is kept as it is.
    ErrorData = "error_data" { Runtime = "runtime", Object = "object", Text = "text" }
}

axis! {
    /// How many items a page of a list holds. pagination.mdx: "The page size is determined by
    /// the server".
    PageSize = "page_size" { One = "1", Two = "2", Three = "3", Default = "100" }
}

/// One server: every draw of one seed.
#[derive(Clone, Debug)]
pub struct Variant {
    pub seed: u64,
    pub reader: Reader,
    pub key_order: KeyOrder,
    pub spacing: Spacing,
    pub escapes: Escapes,
    pub http_reply: HttpReply,
    pub sse_style: SseStyle,
    pub http_state: HttpState,
    pub session_id: SessionId,
    pub eras: Eras,
    pub legacy_word: LegacyWord,
    pub resources: bool,
    pub prompts: bool,
    pub completions: bool,
    pub logging: bool,
    pub page_size: PageSize,
    pub cursor: Cursor,
    pub chatter: Chatter,
    pub latency: Latency,
    pub wording: Wording,
    pub error_data: ErrorData,
}

/// The boolean axes: the capabilities beyond tools.
pub const CAPABILITY_AXES: [&str; 4] = ["resources", "prompts", "completions", "logging"];

impl Variant {
    /// The server of `seed`.
    pub fn draw(seed: u64) -> Variant {
        let mut r = Prng::new(seed);
        Variant {
            seed,
            reader: r.pick(Reader::ALL),
            key_order: r.pick(KeyOrder::ALL),
            spacing: r.pick(Spacing::ALL),
            escapes: r.pick(Escapes::ALL),
            http_reply: r.pick(HttpReply::ALL),
            sse_style: r.pick(SseStyle::ALL),
            http_state: r.pick(HttpState::ALL),
            session_id: r.pick(SessionId::ALL),
            eras: r.pick(Eras::ALL),
            resources: r.one_in(2),
            prompts: r.one_in(2),
            completions: r.one_in(2),
            logging: r.one_in(2),
            page_size: r.pick(PageSize::ALL),
            cursor: r.pick(Cursor::ALL),
            chatter: r.pick(Chatter::ALL),
            latency: r.pick(Latency::ALL),
            wording: r.pick(Wording::ALL),
            error_data: r.pick(ErrorData::ALL),
            legacy_word: r.pick(LegacyWord::ALL),
        }
    }

    /// The server every mutant mutates: every capability, 2026-07-28 alone, plain output and
    /// small pages (so every list has a second page), so that every method has a response.
    pub fn full(seed: u64) -> Variant {
        Variant {
            seed,
            reader: Reader::Lines,
            key_order: KeyOrder::Sorted,
            spacing: Spacing::Compact,
            escapes: Escapes::Raw,
            http_reply: HttpReply::Json,
            sse_style: SseStyle::Named,
            http_state: HttpState::Stateful,
            session_id: SessionId::Runtime,
            eras: Eras::Current,
            legacy_word: LegacyWord::MethodNotFound,
            resources: true,
            prompts: true,
            completions: true,
            logging: true,
            page_size: PageSize::Default,
            cursor: Cursor::Runtime,
            chatter: Chatter::Quiet,
            latency: Latency::None,
            wording: Wording::Runtime,
            error_data: ErrorData::Runtime,
        }
    }

    /// Every draw as `(axis, value)`, in the order of the `variant:` lines.
    pub fn draws(&self) -> Vec<(&'static str, String)> {
        let flag = |b: bool| if b { "on" } else { "off" }.to_owned();
        vec![
            (Reader::AXIS, self.reader.to_string()),
            (KeyOrder::AXIS, self.key_order.to_string()),
            (Spacing::AXIS, self.spacing.to_string()),
            (Escapes::AXIS, self.escapes.to_string()),
            (HttpReply::AXIS, self.http_reply.to_string()),
            (SseStyle::AXIS, self.sse_style.to_string()),
            (HttpState::AXIS, self.http_state.to_string()),
            (SessionId::AXIS, self.session_id.to_string()),
            (Eras::AXIS, self.eras.to_string()),
            (LegacyWord::AXIS, self.legacy_word.to_string()),
            ("resources", flag(self.resources)),
            ("prompts", flag(self.prompts)),
            ("completions", flag(self.completions)),
            ("logging", flag(self.logging)),
            (PageSize::AXIS, self.page_size.to_string()),
            (Cursor::AXIS, self.cursor.to_string()),
            (Chatter::AXIS, self.chatter.to_string()),
            (Latency::AXIS, self.latency.to_string()),
            (Wording::AXIS, self.wording.to_string()),
            (ErrorData::AXIS, self.error_data.to_string()),
        ]
    }

    /// The draws as one line, `axis=value ...`.
    pub fn summary(&self) -> String {
        self.draws()
            .iter()
            .map(|(a, v)| format!("{a}={v}"))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// Every value each axis has, for the test that all were drawn.
    pub fn every_axis_value() -> Vec<(&'static str, Vec<String>)> {
        fn names<T: fmt::Display>(all: &[T]) -> Vec<String> {
            all.iter().map(ToString::to_string).collect()
        }
        let on_off = || vec!["on".to_owned(), "off".to_owned()];
        let mut axes = vec![
            (Reader::AXIS, names(Reader::ALL)),
            (KeyOrder::AXIS, names(KeyOrder::ALL)),
            (Spacing::AXIS, names(Spacing::ALL)),
            (Escapes::AXIS, names(Escapes::ALL)),
            (HttpReply::AXIS, names(HttpReply::ALL)),
            (SseStyle::AXIS, names(SseStyle::ALL)),
            (HttpState::AXIS, names(HttpState::ALL)),
            (SessionId::AXIS, names(SessionId::ALL)),
            (Eras::AXIS, names(Eras::ALL)),
            (LegacyWord::AXIS, names(LegacyWord::ALL)),
        ];
        for capability in CAPABILITY_AXES {
            axes.push((capability, on_off()));
        }
        axes.extend([
            (PageSize::AXIS, names(PageSize::ALL)),
            (Cursor::AXIS, names(Cursor::ALL)),
            (Chatter::AXIS, names(Chatter::ALL)),
            (Latency::AXIS, names(Latency::ALL)),
            (Wording::AXIS, names(Wording::ALL)),
            (ErrorData::AXIS, names(ErrorData::ALL)),
        ]);
        axes
    }

    /// The largest delay of one reply, in milliseconds.
    pub fn max_delay_ms(&self) -> u64 {
        match self.latency {
            Latency::None => 0,
            Latency::Few => 5,
            Latency::Tens => 40,
            Latency::Hundred => 100,
        }
    }

    /// Whether the server serves 2025-11-25 alone and says so in a 2026-07-28 answer
    /// (`server/discover`'s `supportedVersions` or a -32022) rather than with -32601.
    pub fn names_its_versions(&self) -> bool {
        self.eras == Eras::Legacy && self.legacy_word != LegacyWord::MethodNotFound
    }

    /// Items per page.
    pub fn items_per_page(&self) -> usize {
        match self.page_size {
            PageSize::One => 1,
            PageSize::Two => 2,
            PageSize::Three => 3,
            PageSize::Default => 100,
        }
    }
}
