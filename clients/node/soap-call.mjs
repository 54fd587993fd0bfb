#!/usr/bin/env node
// Calls a wcf-http host through SOAP clients built from the WSDL it serves (src/soap.mjs).
//   node soap-call.mjs BASE_ADDRESS         e.g. http://127.0.0.1:8080
// Prints {"ready": true}, then reads JSON lines {"service", "method", "request"} (the request in
// the contracts' member names; a list of messages as a JSON array) and answers each with one line:
// {"reply": {...}} (lists flattened back to arrays) or {"error": {"rpcErrorCode", "message"}}.
// The .NET tests drive it (tests/Clients/RpcCompare.GeneratedClients.Tests/Node/SoapFromWsdlTests.cs).
import readline from 'node:readline';
import { connect, errorCodeOf, invoke } from './src/soap.mjs';

if (process.argv.length !== 3 || ['-h', '--help'].includes(process.argv[2])) {
  console.error('Usage: node soap-call.mjs BASE_ADDRESS   (the wcf-http address, e.g. http://127.0.0.1:8080)');
  process.exit(process.argv.length === 3 ? 0 : 2);
}

const clients = new Map();
const clientFor = async (service) => {
  if (!clients.has(service)) clients.set(service, await connect(process.argv[2], service));
  return clients.get(service);
};

// DataContractSerializer writes a list as a wrapper element holding one element per item, named
// after the item's type; the WSDL says so, and the soap package expects and returns that shape.
const itemElements = { Records: 'Rgba32', Entries: 'DirectoryEntry' };
const wrapLists = (request) => Object.fromEntries(Object.entries(request).map(([name, value]) =>
  [name, Array.isArray(value) ? { [itemElements[name]]: value } : value]));
const unwrapLists = (reply) => Object.fromEntries(Object.entries(reply ?? {}).map(([name, value]) => {
  if (!(name in itemElements)) return [name, value];
  const items = value?.[itemElements[name]];
  return [name, items === undefined ? [] : [items].flat()];
}));

console.log(JSON.stringify({ ready: true }));
for await (const line of readline.createInterface({ input: process.stdin })) {
  if (!line.trim()) continue;
  const { service, method, request } = JSON.parse(line);
  try {
    const reply = await invoke(await clientFor(service), method, wrapLists(request));
    console.log(JSON.stringify({ reply: unwrapLists(reply) }));
  } catch (error) {
    console.log(JSON.stringify({ error: { rpcErrorCode: errorCodeOf(error) ?? null, message: String(error?.message ?? error) } }));
  }
}
