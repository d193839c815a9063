// The official TypeScript MCP SDK v2 client (@modelcontextprotocol/client@2.4.0) against the
// conformance fixture server, with version negotiation "auto" (2026-07-28) or "legacy" (the
// 2025-11-25 initialize handshake): list tools, call a tool, finish a multi-round elicitation
// tool (input_required rounds in 2026-07-28, elicitation/create requests from the server in
// 2025-11-25), read a resource, get a prompt.
// Usage: node ts_client.mjs stdio FIXTURE_BINARY [MODE] | node ts_client.mjs http URL [MODE]
// Exits non-zero, naming the step, on any failure.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const [kind, target, mode = 'auto'] = process.argv.slice(2);
if (![4, 5].includes(process.argv.length) || !['stdio', 'http'].includes(kind)) {
  console.error('usage: node ts_client.mjs stdio FIXTURE_BINARY [MODE] | node ts_client.mjs http URL [MODE]');
  process.exit(2);
}

function check(step, condition, detail) {
  if (!condition) {
    console.error(`typescript client: ${step} failed: ${JSON.stringify(detail)}`);
    process.exit(1);
  }
  console.log(`  ok  ${step}`);
}

const client = new Client(
  { name: 'mcp-test-interop', version: '1.0.0' },
  { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode } },
);
// Answers the fixture's questions (the multi-round tool asks name, then color).
client.setRequestHandler('elicitation/create', async (request) => {
  const properties = request.params.requestedSchema?.properties ?? {};
  return { action: 'accept', content: 'name' in properties ? { name: 'Ada' } : { color: 'blue' } };
});

const transport = kind === 'stdio'
  ? new StdioClientTransport({ command: target, args: [] })
  : new StreamableHTTPClientTransport(new URL(target));

try {
  await client.connect(transport);
  const version = client.getNegotiatedProtocolVersion();
  const expected = mode === 'legacy' ? '2025-11-25' : '2026-07-28';
  check(`handshake (${mode} negotiation picked ${expected})`, version === expected, version);

  const tools = await client.listTools();
  const names = tools.tools.map((t) => t.name);
  check('list tools', names.includes('test_simple_text'), names);

  let result = await client.callTool({ name: 'test_simple_text', arguments: {} });
  check('call a tool', result.content[0].text === 'This is a simple text response for testing.', result);

  result = await client.callTool({ name: 'test_input_required_result_multi_round', arguments: {} });
  check('finish a multi-round elicitation tool',
    result.content[0].text === 'Completed both rounds: name = Ada, color = blue', result);

  const resource = await client.readResource({ uri: 'test://static-text' });
  check('read a resource',
    resource.contents[0].text === 'This is the content of the static text resource.', resource);

  const prompt = await client.getPrompt({
    name: 'test_prompt_with_arguments', arguments: { arg1: 'hello', arg2: 'world' },
  });
  check('get a prompt',
    prompt.messages[0].content.text === "Prompt with arguments: arg1='hello', arg2='world'", prompt);
} catch (e) {
  console.error(`typescript client: ${e?.stack ?? e}`);
  process.exit(1);
} finally {
  await client.close().catch(() => {});
}
