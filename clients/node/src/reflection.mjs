// A gRPC client that knows only what the host serves, the way grpcurl, Postman and other dynamic
// clients work: the services and messages come from server reflection (grpc.reflection.v1), the
// messages are built at run time from the served descriptors (protobufjs), and a message is
// encoded as a protoc-generated proto3 client encodes it: a field without explicit presence that
// holds its default (0, "", false, empty bytes) is left off the wire. (protobufjs itself writes
// any field that is set; a zero it writes would hide exactly the trap this client exists to find.)
import { createRequire } from 'node:module';
import path from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import protobuf from 'protobufjs';
import descriptor from 'protobufjs/ext/descriptor/index.js';

const require = createRequire(import.meta.url);
const reflectionProto = path.join(path.dirname(require.resolve('@grpc/reflection/package.json')),
  'build/proto/grpc/reflection/v1/reflection.proto');
const LABEL_REPEATED = 3;
const TYPE_MESSAGE = 11;

/** Asks the reflection service each question in turn on one stream; returns the answers. */
async function ask(target, questions) {
  const reflection = grpc.loadPackageDefinition(protoLoader.loadSync(reflectionProto, { keepCase: true }))
    .grpc.reflection.v1;
  const client = new reflection.ServerReflection(target, grpc.credentials.createInsecure());
  try {
    const stream = client.ServerReflectionInfo();
    const answers = [];
    for (const question of questions) {
      answers.push(await new Promise((resolve, reject) => {
        stream.once('data', (response) => (response.error_response
          ? reject(new Error(`reflection: ${response.error_response.error_message}`))
          : resolve(response)));
        stream.once('error', reject);
        stream.write(question);
      }));
    }
    stream.end();
    return answers;
  } finally {
    client.close();
  }
}

/**
 * Discovers every service the host lists and the files describing them. Returns the service
 * names, each service's methods and a function to call them.
 */
export async function discover(target) {
  const [list] = await ask(target, [{ list_services: '' }]);
  const services = list.list_services_response.service.map((s) => s.name);
  const answers = await ask(target, services.map((name) => ({ file_containing_symbol: name })));
  const files = new Map();
  for (const answer of answers) {
    for (const bytes of answer.file_descriptor_response.file_descriptor_proto) {
      const file = descriptor.FileDescriptorProto.decode(bytes);
      files.set(file.name, file);
    }
  }

  const root = protobuf.Root.fromDescriptor({ file: [...files.values()] }).resolveAll();
  const implicitPresence = implicitPresenceFields([...files.values()]);
  const methods = {};
  for (const name of services) {
    const service = root.lookupService(name);
    methods[name] = Object.values(service.methods).map((m) => ({
      name: m.name,
      requestType: m.resolvedRequestType.fullName.slice(1),
      responseType: m.resolvedResponseType.fullName.slice(1),
      serverStreaming: Boolean(m.responseStream),
      clientStreaming: Boolean(m.requestStream),
    }));
  }

  const client = new grpc.Client(target, grpc.credentials.createInsecure(),
    { 'grpc.max_receive_message_length': 16 * 1024 * 1024 });
  return {
    services,
    methods,
    /** Calls a unary method with a plain object; resolves to the reply as a plain object (int64 as strings, bytes as base64). */
    call(serviceName, methodName, request) {
      const method = root.lookupService(serviceName).methods[methodName];
      if (!method) throw new Error(`${serviceName} has no method ${methodName}`);
      const requestType = method.resolvedRequestType;
      const responseType = method.resolvedResponseType;
      const serialize = (value) => requestType.encode(requestType.fromObject(
        withoutImplicitDefaults(requestType, value, implicitPresence))).finish();
      const deserialize = (bytes) => responseType.toObject(responseType.decode(bytes),
        { longs: String, bytes: String, defaults: true });
      return new Promise((resolve, reject) => {
        client.makeUnaryRequest(`/${serviceName}/${methodName}`, serialize, deserialize, request,
          (error, reply) => (error ? reject(error) : resolve(reply)));
      });
    },
    close: () => client.close(),
  };
}

/** Message full name (no leading dot) to the names of its fields that have no explicit presence. */
function implicitPresenceFields(files) {
  const result = new Map();
  for (const file of files) {
    if (file.syntax !== 'proto3') continue;
    for (const message of file.messageType) {
      const names = message.field
        .filter((f) => !f.proto3Optional && f.label !== LABEL_REPEATED && f.type !== TYPE_MESSAGE
          // A decoded descriptor answers 0 for an unset oneof_index (the prototype's default).
          && !Object.prototype.hasOwnProperty.call(f, 'oneofIndex'))
        .map((f) => f.name);
      result.set(`${file.package}.${message.name}`, new Set(names));
    }
  }
  return result;
}

/** The request as a proto3 encoder sends it: implicit-presence fields holding their default dropped. */
function withoutImplicitDefaults(type, value, implicitPresence) {
  const implicit = implicitPresence.get(type.fullName.slice(1)) ?? new Set();
  const result = {};
  for (const [name, field] of Object.entries(value ?? {})) {
    const isDefault = field === 0 || field === '0' || field === '' || field === false
      || (Buffer.isBuffer(field) && field.length === 0);
    if (implicit.has(name) && isDefault) continue;
    result[name] = field;
  }
  return result;
}

export { grpc };
