// RpcCompare over gRPC from Node.js: @grpc/grpc-js with the service definitions that
// @grpc/proto-loader builds at run time from clients/proto (no generated code to keep in sync).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { service as healthService } from 'grpc-health-check';

const here = path.dirname(fileURLToPath(import.meta.url));
export const protoDirectory = path.resolve(here, '../../proto');
export const protoFile = path.join(protoDirectory, 'rpccompare.v1.proto');

// keepCase: the .proto's field names are the contracts' PascalCase names. longs as String: int64
// values such as LastWriteTimeUtcTicks (~6.4e17) exceed 2^53, which a JS number cannot hold
// exactly; convert the small ones (sizes, offsets) with Number(). defaults fills proto3's zero
// values into replies (the server leaves them off the wire). A request field the caller leaves
// out stays off the wire: WriteAt's Offset is `optional` (explicit presence), so an Offset of 0
// is sent and writes at the start, and a missing one means the middle of the file.
export const loaderOptions = { keepCase: true, longs: String, enums: String, bytes: Buffer, defaults: true, oneofs: true };

/** Where grpc-js connects: "host:port" for grpc-tcp (an http:// or https:// base is accepted), "unix:/path" for grpc-uds. */
export function grpcTarget(address) {
  if (address.startsWith('unix:')) return address;
  if (address.startsWith('/')) return `unix:${address}`;
  return address.replace(/^https?:\/\//, '').replace(/\/$/, '');
}

export function loadPackage(file = protoFile) {
  const definition = protoLoader.loadSync(file, { ...loaderOptions, includeDirs: [protoDirectory] });
  return grpc.loadPackageDefinition(definition).rpccompare.v1;
}

/**
 * TLS for an https:// address or a given certificate file (ca: the host's tls-certificate.pem,
 * written beside its endpoints file), which is then the one root trusted; plaintext otherwise and
 * always for a Unix socket.
 * A host's self-signed certificate names 127.0.0.1, localhost and its advertised host, so
 * grpc-js's own host-name check passes for the names clients dial.
 */
export function credentialsFor(address, { ca } = {}) {
  // A Unix socket (grpc-uds) never leaves the machine and is never encrypted.
  if (grpcTarget(address).startsWith('unix:')) return grpc.credentials.createInsecure();
  if (ca) return grpc.credentials.createSsl(readFileSync(ca));
  return address.startsWith('https://') ? grpc.credentials.createSsl() : grpc.credentials.createInsecure();
}

/** One client per service over one channel, with promise-returning methods (ping(), readDirectory(), ...). */
export function connect(address, { maxMessageSize = 16 * 1024 * 1024, ca } = {}) {
  const pkg = loadPackage();
  const target = grpcTarget(address);
  const credentials = credentialsFor(address, { ca });
  const options = { 'grpc.max_receive_message_length': maxMessageSize, 'grpc.max_send_message_length': maxMessageSize };
  const files = new pkg.FileService(target, credentials, options);
  // Further clients share the first one's channel.
  const shared = { ...options, channelOverride: files.getChannel() };
  const payloads = new pkg.PayloadService(target, credentials, shared);
  const shapes = new pkg.CallShapeService(target, credentials, shared);
  const Health = grpc.makeGenericClientConstructor(healthService, 'Health');
  const health = new Health(target, credentials, shared);
  const call = (client, method) => promisify(client[method]).bind(client);
  return {
    ping: () => call(files, 'Ping')({}),
    readDirectory: (request) => call(files, 'ReadDirectory')(request),
    writeAt: (request) => call(files, 'WriteAt')(request),
    echoBytes: (request) => call(payloads, 'EchoBytes')(request),
    increment: (request) => call(shapes, 'Increment')(request),
    /** grpc.health.v1 Check: the status the server reports for a service ('' = the whole server). */
    health: async (service = '') => (await call(health, 'check')({ service })).status,
    close: () => files.close(),
  };
}

/** The RpcErrorCode name a refusal carries in its trailers, or undefined for any other error. */
export function errorCodeOf(error) {
  return error?.metadata?.get?.('rpccompare-error-code')?.[0]?.toString();
}

export { grpc };
