#!/usr/bin/env node
// Calls a running RpcCompare host from Node.js, the way a team's own code would.
//   node call.mjs grpc 127.0.0.1:50051 ping
//   node call.mjs grpc unix:/tmp/rpccompare/grpc.sock read-directory files
//   node call.mjs grpc 127.0.0.1:50051 health          (the standard grpc.health.v1 service)
//   node call.mjs soap http://127.0.0.1:8080 write-at [OFFSET]
//   node call.mjs soap http://127.0.0.1:8080 echo 100000
import * as grpcClient from './src/grpc.mjs';
import * as soapClient from './src/soap.mjs';
import { payload } from './src/parity.mjs';

const usage = `Usage: node call.mjs (grpc|soap) ADDRESS OPERATION [ARGUMENT]
  grpc ADDRESS: host:port of grpc-tcp, or unix:/path/to/grpc.sock of grpc-uds
  soap ADDRESS: http://host:port of wcf-http (the client is built from its WSDL)
  OPERATION:    ping | read-directory [PATH] | write-at [OFFSET] | echo [BYTES]
                | health [SERVICE]  (grpc only: the standard grpc.health.v1 service)`;

const [transport, address, operation, argument] = process.argv.slice(2);
if (!transport || transport === '-h' || transport === '--help' || !address || !operation) {
  console.log(usage);
  process.exit(transport ? 0 : 2);
}

async function viaGrpc() {
  const connection = grpcClient.connect(address);
  try {
    switch (operation) {
      case 'ping': return await connection.ping();
      case 'read-directory': return await connection.readDirectory({ Path: argument ?? '' });
      case 'write-at': return await connection.writeAt(argument === undefined ? {} : { Offset: Number(argument) });
      case 'echo': return { length: (await connection.echoBytes({ Data: payload(Number(argument ?? 100)) })).Data.length };
      case 'health': return { status: await connection.health(argument ?? '') };
      default: throw new Error(`unknown operation '${operation}'\n${usage}`);
    }
  } catch (error) {
    const code = grpcClient.errorCodeOf(error);
    throw code ? new Error(`${code}: ${error.details}`) : error;
  } finally {
    connection.close();
  }
}

async function viaSoap() {
  const service = operation === 'echo' ? 'rpccompare.v1.PayloadService' : 'rpccompare.v1.FileService';
  const client = await soapClient.connect(address, service);
  try {
    switch (operation) {
      case 'ping': return await soapClient.invoke(client, 'Ping');
      case 'read-directory': return await soapClient.invoke(client, 'ReadDirectory', { Path: argument ?? '' });
      case 'write-at': return await soapClient.invoke(client, 'WriteAt', argument === undefined ? {} : { Offset: Number(argument) });
      case 'echo': {
        const reply = await soapClient.invoke(client, 'EchoBytes', { Data: payload(Number(argument ?? 100)).toString('base64') });
        return { length: Buffer.from(reply.Data ?? '', 'base64').length };
      }
      default: throw new Error(`unknown operation '${operation}'\n${usage}`);
    }
  } catch (error) {
    const code = soapClient.errorCodeOf(error);
    throw code ? new Error(`${code}: ${error.root.Envelope.Body.Fault.detail.RpcFault.Message}`) : error;
  }
}

try {
  const result = transport === 'grpc' ? await viaGrpc() : transport === 'soap' ? await viaSoap() : Promise.reject(new Error(usage));
  console.log(JSON.stringify(result, null, 2));
} catch (error) {
  console.error(`error: ${error.message}`);
  process.exit(1);
}
