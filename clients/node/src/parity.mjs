// The parity cases the .NET tests hand over (tests/Clients/RpcCompare.GeneratedClients.Tests,
// ParityCalls.cs), run through a Node client and described the same way: the result, or the
// refusal's error code.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

/** The payload of a size, byte for byte what ParityCalls.Payload builds. */
export function payload(size) {
  const data = Buffer.alloc(size);
  for (let i = 0; i < size; i++) data[i] = (i * 31 + 7) % 251;
  return data;
}

/** Reads the file named by RPCCOMPARE_PARITY_FILE: addresses, calls and what rpcc's client got. */
export function loadParityFile() {
  const file = process.env.RPCCOMPARE_PARITY_FILE;
  if (!file) {
    throw new Error('RPCCOMPARE_PARITY_FILE is not set: these tests run from `dotnet test` '
      + '(tests/Clients/RpcCompare.GeneratedClients.Tests), which starts a host and writes that file.');
  }
  return JSON.parse(readFileSync(file, 'utf8'));
}

/**
 * Runs one call through `client`, an adapter with ping/readDirectory/writeAt/echoBytes returning
 * plain values and errorCodeOf(error), and returns the outcome object.
 */
export async function run(client, call) {
  try {
    switch (call.operation) {
      case 'Ping':
        await client.ping();
        return { ok: true };
      case 'ReadDirectory':
        return { entries: await client.readDirectory(call.path) };
      case 'WriteAt':
        return await client.writeAt(call.path, call.offset, call.repeat);
      case 'EchoBytes': {
        const sent = payload(call.size);
        const received = await client.echoBytes(sent);
        return {
          length: received.length,
          sha256: createHash('sha256').update(received).digest('hex').toUpperCase(),
          sameAsSent: received.equals(sent),
        };
      }
      default:
        throw new Error(`unknown operation ${call.operation}`);
    }
  } catch (error) {
    const code = client.errorCodeOf(error);
    if (code === undefined) throw error;
    return { error: code };
  }
}
