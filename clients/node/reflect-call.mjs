#!/usr/bin/env node
// Calls a gRPC host with a client built only from its server reflection (src/reflection.mjs).
//   node reflect-call.mjs TARGET            TARGET: host:port, http://host:port or unix:/path
// Prints one JSON line describing what reflection offered ({services, methods}), then reads JSON
// lines {"service", "method", "request"} from standard input and answers each with one line:
// {"reply": {...}} or {"error": {"status", "details", "rpcErrorCode"}}. The .NET tests drive it
// (tests/Clients/RpcCompare.GeneratedClients.Tests/Node/ReflectionClientTests.cs).
import readline from 'node:readline';
import { discover } from './src/reflection.mjs';
import { errorCodeOf, grpcTarget } from './src/grpc.mjs';

if (process.argv.length !== 3 || ['-h', '--help'].includes(process.argv[2])) {
  console.error('Usage: node reflect-call.mjs TARGET   (host:port, http://host:port or unix:/path)');
  process.exit(process.argv.length === 3 ? 0 : 2);
}

const host = await discover(grpcTarget(process.argv[2]));
console.log(JSON.stringify({ services: host.services, methods: host.methods }));
for await (const line of readline.createInterface({ input: process.stdin })) {
  if (!line.trim()) continue;
  const { service, method, request } = JSON.parse(line);
  try {
    console.log(JSON.stringify({ reply: await host.call(service, method, request) }));
  } catch (error) {
    if (error.code === undefined) throw error;
    console.log(JSON.stringify({ error: { status: error.code, details: error.details, rpcErrorCode: errorCodeOf(error) ?? null } }));
  }
}
host.close();
