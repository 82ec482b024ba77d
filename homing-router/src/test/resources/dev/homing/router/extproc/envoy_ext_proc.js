'use strict';
// Plays Envoy's ext_proc filter against an endpoint picker from a second gRPC stack: Node's @grpc/grpc-js, with
// Envoy's own .proto files loaded by @grpc/proto-loader (protobufjs), so nothing is shared with the Java server but
// the wire. Modes as llm-d configures Envoy: FULL_DUPLEX_STREAMED both ways, protocol_config on the first message.
//
//   node envoy_ext_proc.js HOST PORT tls|plaintext PROTO_DIR < plan.json
//
// stdin's first line is the plan, {"exchanges":[...]}, each one gRPC stream:
//   {"name", "path", "body" (base64), "chunks" (how many request_body messages), "pause" (optional),
//    "response": {"status", "contentType", "chunks": [base64...]} (absent when the picker is expected to refuse)}
// stdout gets JSON lines: {"paused": NAME} when an exchange with "pause" has its response headers answered (it then
// waits for one line on stdin before sending the response body), {"error": ...} on failure, and at the end
// {"summary": {"exchanges": [...]}}: what the picker answered, bytes in base64, for the test to judge. The script
// judges nothing, and it stops by itself: every wait is bounded.
const NODE_MIN = 18; // what the @grpc/grpc-js of .ci/node/package-lock.json runs on
if (Number(process.versions.node.split('.')[0]) < NODE_MIN) {
  // before the requires, which an older Node may fail on with a less clear message; a pipe is written synchronously
  process.stdout.write(JSON.stringify({error: `Node.js >= ${NODE_MIN} is needed, this is ${process.version}`}) + '\n');
  process.exit(1);
}
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');
const readline = require('node:readline');

const WAIT_MS = 20000;
const LIFETIME_MS = 90000;

const [host, port, security, protoDir] = process.argv.slice(2);
if (!host || !port || !['tls', 'plaintext'].includes(security) || !protoDir) {
  fail('usage: envoy_ext_proc.js HOST PORT tls|plaintext PROTO_DIR < plan.json');
}
setTimeout(() => fail(`still running after ${LIFETIME_MS} ms`), LIFETIME_MS).unref();

function fail(message) {
  process.stdout.write(JSON.stringify({error: String(message)}) + '\n', () => process.exit(1));
}

const lines = readline.createInterface({input: process.stdin})[Symbol.asyncIterator]();
async function nextLine(what) {
  const timeout = new Promise((_, reject) => setTimeout(() => reject(new Error(`no ${what} on stdin`)), WAIT_MS));
  const r = await Promise.race([lines.next(), timeout]);
  if (r.done) throw new Error(`stdin closed before ${what}`);
  return r.value;
}

const definition = protoLoader.loadSync('envoy/service/ext_proc/v3/external_processor.proto', {
  includeDirs: [protoDir],
  keepCase: true, // field names as in the .proto: request_headers, raw_value, end_of_stream
  longs: String,
  enums: Number, // the wire's numbers: the test compares them with Envoy's values
  bytes: Buffer,
  defaults: false,
  oneofs: true, // a message's oneof case is named: response = 'request_headers', ...
});
const ExternalProcessor = grpc.loadPackageDefinition(definition).envoy.service.ext_proc.v3.ExternalProcessor;

// Envoy does not verify the picker's certificate (the InferencePool's picker cluster has an empty TLS context), so
// neither does this client: no trust anchors, no name check.
const credentials = security === 'tls'
  ? grpc.credentials.createSsl(null, null, null, {rejectUnauthorized: false, checkServerIdentity: () => undefined})
  : grpc.credentials.createInsecure();
// Envoy sends no SNI to an address; Node refuses an IP as TLS server name, so name one the certificate carries.
const options = security === 'tls' ? {'grpc.ssl_target_name_override': 'localhost'} : {};
const client = new ExternalProcessor(`${host}:${port}`, credentials, options);

/** One bidirectional Process stream, its answers queued as they arrive. */
class Stream {
  constructor() {
    this.queue = [];
    this.waiters = [];
    this.call = client.Process({deadline: Date.now() + LIFETIME_MS});
    this.status = new Promise((resolve) => this.call.on('status', (s) => resolve({code: s.code, details: s.details})));
    this.call.on('data', (m) => this.push({message: m}));
    this.call.on('error', (e) => this.push({error: e}));
    this.call.on('end', () => this.push({end: true}));
  }

  push(item) {
    const w = this.waiters.shift();
    if (w) w(item); else this.queue.push(item);
  }

  send(message) {
    this.call.write(message);
  }

  /** The next answer; fails on an error, the stream's end, or none within WAIT_MS. */
  async next(what) {
    const item = this.queue.length > 0 ? this.queue.shift() : await new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`no ${what} from the picker within ${WAIT_MS} ms`)), WAIT_MS);
      this.waiters.push((i) => { clearTimeout(t); resolve(i); });
    });
    if (item.error) throw new Error(`stream failed waiting for ${what}: ${item.error.message}`);
    if (item.end) throw new Error(`stream ended waiting for ${what}`);
    return item.message;
  }

  /** Half-closes, as Envoy does once the response is over, and waits for the picker's status. */
  async end() {
    this.call.end();
    const timeout = new Promise((_, reject) => setTimeout(() => reject(new Error('no status')), WAIT_MS));
    return Promise.race([this.status, timeout]);
  }
}

function headerMap(headers) {
  return {headers: Object.entries(headers).map(([key, value]) => ({key, raw_value: Buffer.from(String(value))}))};
}

function text(h) {
  return h.raw_value && h.raw_value.length > 0 ? h.raw_value.toString('utf8') : (h.value || '');
}

/** A header mutation as the test reads it: set headers in order (with their append action), removed names. */
function mutation(m) {
  m = m || {};
  return {
    set: (m.set_headers || []).map((o) => ({key: o.header.key, value: text(o.header), append_action: o.append_action || 0})),
    remove: m.remove_headers || [],
  };
}

/** google.protobuf.Struct, decoded by protobufjs, as plain JSON. */
function struct(s) {
  const out = {};
  for (const [k, v] of Object.entries((s && s.fields) || {})) out[k] = value(v);
  return out;
}

function value(v) {
  switch (v.kind) {
    case 'structValue': return struct(v.structValue);
    case 'listValue': return (v.listValue.values || []).map(value);
    case 'nullValue': return null;
    default: return v[v.kind];
  }
}

function expect(message, kind) {
  if (message.response !== kind) {
    throw new Error(`expected ${kind}, the picker answered ${message.response}: ${JSON.stringify(message)}`);
  }
  return message[kind];
}

async function exchange(plan) {
  const s = new Stream();
  const body = Buffer.from(plan.body, 'base64');
  const out = {name: plan.name};
  s.send({
    request_headers: {
      headers: headerMap({
        ':method': 'POST',
        ':path': plan.path,
        ':authority': 'gateway.example',
        ':scheme': 'http',
        'content-type': 'application/json',
        'content-length': body.length,
        'x-request-id': `node-${plan.name}`,
      }),
      end_of_stream: false,
    },
    protocol_config: {request_body_mode: 'FULL_DUPLEX_STREAMED', response_body_mode: 'FULL_DUPLEX_STREAMED'},
  });
  // Envoy streams the body on without waiting: FULL_DUPLEX_STREAMED answers the headers once the body is whole.
  for (let i = 0; i < plan.chunks; i++) {
    const from = Math.floor(body.length * i / plan.chunks);
    const to = Math.floor(body.length * (i + 1) / plan.chunks);
    s.send({request_body: {body: body.subarray(from, to), end_of_stream: i === plan.chunks - 1}});
  }

  const first = await s.next('the answer to the request headers');
  if (first.response === 'immediate_response') {
    const r = first.immediate_response;
    out.immediate = {
      status: r.status ? r.status.code : 0,
      headers: mutation(r.headers),
      body: Buffer.from(r.body || []).toString('base64'),
      details: r.details || '',
    };
    out.end = await s.end(); // Envoy answers the client and closes the stream
    return out;
  }
  const common = expect(first, 'request_headers').response || {};
  out.requestHeaders = {
    status: common.status || 0,
    mutation: mutation(common.header_mutation),
    clear_route_cache: !!common.clear_route_cache,
    has_body_mutation: !!common.body_mutation,
    dynamic_metadata: struct(first.dynamic_metadata),
  };

  const pieces = [];
  for (let done = false; !done;) {
    const r = expect(await s.next('the body given back'), 'request_body').response || {};
    const streamed = (r.body_mutation || {}).streamed_response;
    if (!streamed) throw new Error(`a body answer without streamed_response: ${JSON.stringify(r)}`);
    const bytes = Buffer.from(streamed.body || []);
    pieces.push({size: bytes.length, end_of_stream: !!streamed.end_of_stream, bytes});
    done = !!streamed.end_of_stream;
  }
  out.bodyGivenBack = {
    pieces: pieces.map((p) => ({size: p.size, end_of_stream: p.end_of_stream})),
    body: Buffer.concat(pieces.map((p) => p.bytes)).toString('base64'),
  };

  const response = plan.response;
  s.send({response_headers: {headers: headerMap({':status': response.status, 'content-type': response.contentType}),
    end_of_stream: false}});
  const rh = expect(await s.next('the answer to the response headers'), 'response_headers').response || {};
  out.responseHeaders = {mutation: mutation(rh.header_mutation)};
  if (plan.pause) {
    process.stdout.write(JSON.stringify({paused: plan.name}) + '\n');
    await nextLine('the line that resumes ' + plan.name);
  }

  out.echoes = [];
  for (let i = 0; i < response.chunks.length; i++) {
    const last = i === response.chunks.length - 1;
    s.send({response_body: {body: Buffer.from(response.chunks[i], 'base64'), end_of_stream: last}});
    const r = expect(await s.next(`the echo of response chunk ${i}`), 'response_body').response || {};
    const streamed = (r.body_mutation || {}).streamed_response || {};
    out.echoes.push({body: Buffer.from(streamed.body || []).toString('base64'), end_of_stream: !!streamed.end_of_stream});
  }
  out.end = await s.end();
  return out;
}

(async () => {
  const plan = JSON.parse(await nextLine('the plan'));
  const exchanges = [];
  for (const p of plan.exchanges) exchanges.push(await exchange(p));
  client.close();
  process.stdout.write(JSON.stringify({summary: {exchanges}}) + '\n', () => process.exit(0));
})().catch((e) => fail(e && e.stack ? e.stack : e));
