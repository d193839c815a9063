// The official TypeScript MCP SDK v2 client (@modelcontextprotocol/client@2.4.0) against the
// conformance fixture server, with version negotiation "auto" (2026-07-28) or "legacy" (the
// 2025-11-25 initialize handshake): list tools, call a tool, finish a multi-round elicitation
// tool (input_required rounds in 2026-07-28, elicitation/create requests from the server in
// 2025-11-25), read a resource, get a prompt.
// Usage: node ts_client.mjs stdio FIXTURE_BINARY [MODE] | node ts_client.mjs http URL [MODE]
// Exits non-zero, naming the step, on any failure.
import { answerElicitation, check, runSteps } from './interop_steps.mjs';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const [kind, target, mode = 'auto'] = process.argv.slice(2);
if (![4, 5].includes(process.argv.length) || !['stdio', 'http'].includes(kind)) {
  console.error('usage: node ts_client.mjs stdio FIXTURE_BINARY [MODE] | node ts_client.mjs http URL [MODE]');
  process.exit(2);
}

const LABEL = 'typescript client';

const client = new Client(
  { name: 'mcp-test-interop', version: '1.0.0' },
  { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode } },
);
client.setRequestHandler('elicitation/create', async (request) => answerElicitation(request));

const transport = kind === 'stdio'
  ? new StdioClientTransport({ command: target, args: [] })
  : new StreamableHTTPClientTransport(new URL(target));

try {
  await client.connect(transport);
  const version = client.getNegotiatedProtocolVersion();
  const expected = mode === 'legacy' ? '2025-11-25' : '2026-07-28';
  check(LABEL, `handshake (${mode} negotiation picked ${expected})`, version === expected, version);

  await runSteps(client, LABEL);
} catch (e) {
  console.error(`typescript client: ${e?.stack ?? e}`);
  process.exit(1);
} finally {
  await client.close().catch(() => {});
}
