// grpc-js client built from clients/proto, against the host the .NET test started: parity with
// rpcc's client over grpc-tcp and grpc-uds, the service list from server reflection, and health.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as protoLoader from '@grpc/proto-loader';
import { connect, credentialsFor, errorCodeOf, grpc, grpcTarget, loaderOptions, protoFile } from '../src/grpc.mjs';
import { loadParityFile, run } from '../src/parity.mjs';

const parity = loadParityFile();

/** The grpc-js connection reduced to what the parity cases call. */
function parityClient(connection) {
  return {
    ping: () => connection.ping(),
    readDirectory: async (path) => (await connection.readDirectory({ Path: path })).Entries
      .map((e) => ({ name: e.Name, size: Number(e.Size), isDirectory: e.IsDirectory })),
    writeAt: async (path, offset, repeat) => {
      // Only what the case sets goes into the request; an omitted Offset means "the middle".
      const request = { Repeat: repeat };
      if (path != null) request.Path = path;
      if (offset != null) request.Offset = offset;
      const reply = await connection.writeAt(request);
      return { bytesWritten: Number(reply.BytesWritten), offset: Number(reply.Offset), fileLength: Number(reply.FileLength) };
    },
    echoBytes: async (data) => (await connection.echoBytes({ Data: data })).Data,
    errorCodeOf,
  };
}

// Every gRPC binding in the parity file: grpc-tcp and grpc-uds, or grpc-tcp over TLS (with its ca).
for (const binding of Object.keys(parity.bindings).filter((name) => name.startsWith('grpc-'))) {
  describe(`${binding} parity with rpcc`, () => {
    const { address, expected, ca } = parity.bindings[binding];
    const connection = connect(address, { ca });
    after(() => connection.close());

    for (const call of parity.calls) {
      test(call.name, async () => {
        assert.deepEqual(await run(parityClient(connection), call), expected[call.name]);
      });
    }
  });
}

describe('grpc-tcp services', () => {
  const { address, ca } = parity.bindings['grpc-tcp'];
  const target = grpcTarget(address);

  test('server reflection lists exactly the services of clients/proto', async () => {
    const require = createRequire(import.meta.url);
    const reflectionProto = path.join(path.dirname(require.resolve('@grpc/reflection/package.json')),
      'build/proto/grpc/reflection/v1alpha/reflection.proto');
    const reflection = grpc.loadPackageDefinition(protoLoader.loadSync(reflectionProto, loaderOptions))
      .grpc.reflection.v1alpha;
    const client = new reflection.ServerReflection(target, credentialsFor(address, { ca }));
    try {
      const served = await new Promise((resolve, reject) => {
        const stream = client.ServerReflectionInfo();
        stream.on('data', (response) => {
          if (response.error_response) reject(new Error(response.error_response.error_message));
          else resolve(response.list_services_response.service.map((s) => s.name));
          stream.end();
        });
        stream.on('error', reject);
        stream.write({ list_services: '' });
      });

      const declared = Object.entries(protoLoader.loadSync(protoFile, loaderOptions))
        .filter(([, definition]) => !('format' in definition))
        .map(([name]) => name);
      assert.ok(declared.length > 0, 'clients/proto declares no service');
      assert.deepEqual(served.filter((name) => name.startsWith('rpccompare.')).sort(), declared.sort());
      // Besides the contracts: the standard health service and reflection itself, v1 and v1alpha.
      assert.deepEqual(served.filter((name) => !name.startsWith('rpccompare.')).sort(),
        ['grpc.health.v1.Health', 'grpc.reflection.v1.ServerReflection', 'grpc.reflection.v1alpha.ServerReflection']);
    } finally {
      client.close();
    }
  });

  test('standard health service reports the server and every service SERVING', async () => {
    const connection = connect(address, { ca });
    try {
      for (const name of ['', 'rpccompare.v1.FileService', 'rpccompare.v1.PayloadService', 'rpccompare.v1.PushService']) {
        assert.equal(await connection.health(name), 'SERVING', `health of '${name}'`);
      }
      await assert.rejects(connection.health('no.such.Service'), (error) => error.code === grpc.status.NOT_FOUND);
    } finally {
      connection.close();
    }
  });
});
