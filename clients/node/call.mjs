#!/usr/bin/env node
// Calls a running RpcCompare host from Node.js, the way a team's own code would.
//   node call.mjs grpc 127.0.0.1:50051 ping
//   node call.mjs grpc unix:/tmp/rpccompare/grpc.sock read-directory files
//   node call.mjs grpc 127.0.0.1:50051 health          (the standard grpc.health.v1 service)
//   node call.mjs soap http://127.0.0.1:8080 write-at [OFFSET]
//   node call.mjs soap http://127.0.0.1:8080 echo 100000
//   node call.mjs grpc https://127.0.0.1:50051 ping --ca /run/rpccompare/tls-certificate.pem
import * as grpcClient from './src/grpc.mjs';
import * as soapClient from './src/soap.mjs';
import { payload } from './src/parity.mjs';

const usage = `Usage: node call.mjs (grpc|soap) ADDRESS OPERATION [ARGUMENT] [--ca FILE]
  grpc ADDRESS: host:port or https://host:port of grpc-tcp, or unix:/path/to/grpc.sock of grpc-uds
  soap ADDRESS: http(s)://host:port of wcf-http (the client is built from its WSDL)
  --ca FILE:    trust this certificate for TLS (a host with --tls writes tls-certificate.pem
                beside its endpoints file); also RPCCOMPARE_CA
  OPERATION:    ping | read-directory [PATH] | write-at [OFFSET] | echo [BYTES]
                | health [SERVICE]  (grpc only: the standard grpc.health.v1 service)`;

// grpc-js gives Node.js the IP address it dials as the TLS server name, which Node.js warns about
// (DEP0123) on stderr at every TLS call to an address such as 127.0.0.1: callers read this tool's
// output, and the warning says nothing they could act on. Every other warning is still printed.
process.removeAllListeners('warning');
process.on('warning', (warning) => {
  if (warning.code !== 'DEP0123') console.warn(`${warning.name}: ${warning.message}`);
});

// --ca FILE (or RPCCOMPARE_CA): the certificate to trust for TLS, e.g. the tls-certificate.pem a
// host with --tls writes beside its endpoints file.
const args = process.argv.slice(2);
const caAt = args.indexOf('--ca');
const ca = caAt >= 0 ? args.splice(caAt, 2)[1] : process.env.RPCCOMPARE_CA || undefined;
const [transport, address, operation, argument] = args;
if (!transport || transport === '-h' || transport === '--help' || !address || !operation) {
  console.log(usage);
  process.exit(transport ? 0 : 2);
}

async function viaGrpc() {
  const connection = grpcClient.connect(address, { ca });
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
  const client = await soapClient.connect(address, service, { ca });
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
