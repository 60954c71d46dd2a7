'use strict';
// The referee API, loaded at run time from the .proto files: no generated code, nothing
// from the referee's own (Python) client. `@grpc/proto-loader` reads proto/ for the calls;
// `protobufjs` reads google/rpc/status.proto and error_details.proto (vendored in
// clients/node/proto/) to decode the refusal details in the `grpc-status-details-bin`
// trailer. The vendored grpc/reflection/{v1,v1alpha}/reflection.proto give the server
// reflection services.

const fs = require('node:fs');
const path = require('node:path');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');
const protobuf = require('protobufjs');

const REFEREE_PROTO = 'bhabhi/referee/v1/referee.proto';
const VENDORED = path.join(__dirname, '..', 'proto');
const DOMAIN = 'referee.bhabhi';
const LANGUAGES = ['en', 'de', 'pl'];
const REFLECTION_VERSIONS = ['v1', 'v1alpha'];

// Options that make the decoded messages plain JSON-like objects: field names as written
// in the .proto, enums as their names, int64 as numbers (a seq fits easily), every field
// present with its default, and each oneof's chosen member named in a virtual field (for
// example `event.kind === 'card_played'`).
const LOADER_OPTIONS = {
  keepCase: true,
  longs: Number,
  enums: String,
  defaults: true,
  oneofs: true,
};

function loadApi(protoDir) {
  const includeDirs = [protoDir, VENDORED];
  if (!fs.existsSync(path.join(protoDir, REFEREE_PROTO))) {
    throw new Error(`no ${REFEREE_PROTO} under ${protoDir} (give --proto DIR)`);
  }
  const definition = protoLoader.loadSync(REFEREE_PROTO, { ...LOADER_OPTIONS, includeDirs });
  const v1 = grpc.loadPackageDefinition(definition).bhabhi.referee.v1;

  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => {
    for (const dir of includeDirs) {
      const candidate = path.join(dir, target);
      if (fs.existsSync(candidate)) return candidate;
    }
    return target; // google/protobuf/*.proto: protobufjs ships the well-known types
  };
  root.loadSync(['google/rpc/status.proto', 'google/rpc/error_details.proto', REFEREE_PROTO], {
    keepCase: true,
  });
  const types = {
    Status: root.lookupType('google.rpc.Status'),
    ErrorInfo: root.lookupType('google.rpc.ErrorInfo'),
    LocalizedMessage: root.lookupType('google.rpc.LocalizedMessage'),
    RetryInfo: root.lookupType('google.rpc.RetryInfo'),
    SubmitActionRequest: root.lookupType('bhabhi.referee.v1.SubmitActionRequest'),
  };
  return { v1, types, root };
}

// The ServerReflection service of each version, from the vendored reflection.proto files.
function loadReflection() {
  const services = {};
  for (const version of REFLECTION_VERSIONS) {
    const file = `grpc/reflection/${version}/reflection.proto`;
    const definition = protoLoader.loadSync(file, { ...LOADER_OPTIONS, includeDirs: [VENDORED] });
    services[version] = grpc.loadPackageDefinition(definition).grpc.reflection[version].ServerReflection;
  }
  return services;
}

const CODE_NAMES = Object.fromEntries(Object.entries(grpc.status).map(([k, v]) => [v, k]));

function codeName(code) {
  return CODE_NAMES[code] || String(code);
}

// Whether a decoded refusal is the documented one: the gRPC code, and (unless reason is
// null) an ErrorInfo with that reason in our domain, a google.rpc.Status agreeing with the
// gRPC status, and a LocalizedMessage in every language. Returns what is wrong, or null.
function refusalProblem(e, code, reason) {
  const got = `${e.codeName} ${e.info ? e.info.reason : '(no ErrorInfo)'}: ${e.message}`;
  const wanted = `${code} ${reason || ''}`.trim();
  if (code !== null && e.codeName !== code) return `expected ${wanted}, got ${got}`;
  if (reason === null) return null;
  if (!e.info) return `no google.rpc.ErrorInfo in grpc-status-details-bin (${got})`;
  if (e.info.reason !== reason) return `expected reason ${reason}, got ${got}`;
  if (e.info.domain !== DOMAIN) return `ErrorInfo domain ${e.info.domain}, not ${DOMAIN}`;
  if (!e.status || e.status.code !== e.code) return 'google.rpc.Status code disagrees with the gRPC status';
  for (const lang of LANGUAGES) {
    if (!e.localized[lang]) return `no LocalizedMessage for ${lang} (${got})`;
  }
  return null;
}

class Referee {
  // `ownConnection`: a TCP connection of this client's own, as a separate client program
  // would have (grpc-js otherwise shares one connection among the channels to a target).
  constructor(target, protoDir, { ownConnection = false } = {}) {
    const { v1, types, root } = loadApi(protoDir);
    this.target = target;
    this.types = types;
    this.root = root;
    const credentials = grpc.credentials.createInsecure();
    // One channel for every service (and for the raw-bytes calls).
    this.raw = new grpc.Client(target, credentials, ownConnection ? { 'grpc.use_local_subchannel_pool': 1 } : {});
    const channelOverride = this.raw.getChannel();
    const options = { channelOverride };
    this.channelOptions = options;
    this.rulesets = new v1.RulesetService(target, credentials, options);
    this.tables = new v1.TableService(target, credentials, options);
    this.play = new v1.PlayService(target, credentials, options);
    this.services = { RulesetService: this.rulesets, TableService: this.tables, PlayService: this.play };
  }

  close() {
    this.raw.close();
  }

  // A client of grpc.reflection.<version>.ServerReflection on this channel.
  reflection(version) {
    if (!this.reflectionServices) this.reflectionServices = loadReflection();
    const Service = this.reflectionServices[version];
    return new Service(this.target, grpc.credentials.createInsecure(), this.channelOptions);
  }

  // A message type of the referee's API (protobufjs), to encode or decode bytes by hand.
  type(name) {
    return this.root.lookupType(`bhabhi.referee.v1.${name}`);
  }

  metadata(token, extra = {}) {
    const md = new grpc.Metadata();
    if (token !== undefined && token !== null) md.set('authorization', `Bearer ${token}`);
    for (const [k, v] of Object.entries(extra)) md.set(k, v);
    return md;
  }

  // A unary call; resolves to {res} or {err} (never rejects), err with its decoded details.
  call(service, method, request, { token, headers, deadlineMs = 15000 } = {}) {
    const client = this.services[service];
    return new Promise((resolve) => {
      client[method](
        request,
        this.metadata(token, headers),
        { deadline: Date.now() + deadlineMs },
        (err, res) => resolve(err ? { err: this.refusal(err) } : { res }),
      );
    });
  }

  // A unary call with hand-made request bytes (malformed messages, unknown fields).
  callRaw(service, method, bytes, { token, deadlineMs = 15000 } = {}) {
    const name = `/bhabhi.referee.v1.${service}/${method}`;
    return new Promise((resolve) => {
      this.raw.makeUnaryRequest(
        name,
        (buffer) => buffer,
        (buffer) => buffer,
        bytes,
        this.metadata(token),
        { deadline: Date.now() + deadlineMs },
        (err, res) => resolve(err ? { err: this.refusal(err) } : { res }),
      );
    });
  }

  watch(request, token) {
    return this.play.WatchTable(request, this.metadata(token));
  }

  // A bot's wait for seats (TableService.AwaitSeats): a stream of `waiting`, then `seat`s.
  awaitSeats(botKey) {
    return this.tables.AwaitSeats({ bot_key: botKey }, this.metadata());
  }

  // Decode a gRPC error: its code, message, and the google.rpc.Status in the trailer with
  // its ErrorInfo and LocalizedMessages.
  refusal(err) {
    const out = {
      code: err.code,
      codeName: codeName(err.code),
      message: err.details,
      status: null,
      info: null,
      localized: {},
      retryMs: null,
      raw: err,
    };
    const bins = err.metadata ? err.metadata.get('grpc-status-details-bin') : [];
    if (bins.length) {
      const status = this.types.Status.decode(bins[0]);
      out.status = { code: status.code, message: status.message };
      for (const any of status.details) {
        const name = any.type_url.slice(any.type_url.lastIndexOf('/') + 1);
        if (name === 'google.rpc.ErrorInfo') {
          const info = this.types.ErrorInfo.toObject(this.types.ErrorInfo.decode(any.value), {
            defaults: true,
          });
          out.info = { reason: info.reason, domain: info.domain, metadata: info.metadata || {} };
        } else if (name === 'google.rpc.LocalizedMessage') {
          const lm = this.types.LocalizedMessage.decode(any.value);
          out.localized[lm.locale] = lm.message;
        } else if (name === 'google.rpc.RetryInfo') {
          const delay = this.types.RetryInfo.decode(any.value).retry_delay || {};
          out.retryMs = Number(delay.seconds || 0) * 1000 + (delay.nanos || 0) / 1e6;
        }
      }
    }
    return out;
  }

  encodeSubmit(request, extraBytes = null) {
    const T = this.types.SubmitActionRequest;
    const bytes = Buffer.from(T.encode(T.fromObject(request)).finish());
    return extraBytes ? Buffer.concat([bytes, extraBytes]) : bytes;
  }
}

// A command's usage: with a problem, on stderr and exit 2; without (--help), on stdout, exit 0.
function exitWithUsage(text, problem) {
  if (problem) {
    console.error(`${problem}\n${text}`);
    process.exit(2);
  }
  console.log(text);
  process.exit(0);
}

module.exports = { Referee, DOMAIN, LANGUAGES, codeName, refusalProblem, exitWithUsage, grpc };
