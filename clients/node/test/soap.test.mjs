// soap client built from the WSDL wcf-http serves, against the host the .NET test started:
// parity with rpcc's client.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, errorCodeOf, invoke, many } from '../src/soap.mjs';
import { loadParityFile, run } from '../src/parity.mjs';

const parity = loadParityFile();

describe('wcf-http parity with rpcc', async () => {
  const { address, expected, ca } = parity.bindings['wcf-http'];
  const files = await connect(address, 'rpccompare.v1.FileService', { ca });
  const payloads = await connect(address, 'rpccompare.v1.PayloadService', { ca });
  const client = {
    ping: () => invoke(files, 'Ping'),
    readDirectory: async (path) => many((await invoke(files, 'ReadDirectory', { Path: path })).Entries?.DirectoryEntry)
      .map((e) => ({ name: e.Name, size: Number(e.Size), isDirectory: e.IsDirectory === true || e.IsDirectory === 'true' })),
    writeAt: async (path, offset, repeat) => {
      // Elements in the WSDL's sequence order; an omitted Offset means "the middle" (-1).
      const request = {};
      if (path != null) request.Path = path;
      if (offset != null) request.Offset = offset;
      request.Repeat = repeat;
      const reply = await invoke(files, 'WriteAt', request);
      return { bytesWritten: Number(reply.BytesWritten), offset: Number(reply.Offset), fileLength: Number(reply.FileLength) };
    },
    echoBytes: async (data) => Buffer.from((await invoke(payloads, 'EchoBytes', { Data: data.toString('base64') })).Data ?? '', 'base64'),
    errorCodeOf,
  };

  for (const call of parity.calls) {
    test(call.name, async () => {
      assert.deepEqual(await run(client, call), expected[call.name]);
    });
  }
});
